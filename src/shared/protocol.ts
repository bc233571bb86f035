// The extension ↔ webview protocol: one discriminated union per direction. Requests carry an id and
// get exactly one `reply`. The zod schemas here are the one definition: the TypeScript types are
// inferred from them, the host validates every webview message with them, and the webview
// validates every host message with them.
import { z } from 'zod';
import type { DeepReadonly } from './deep-readonly.js';
import { mcpPanelStateSchema } from './mcp-schemas.js';
import {
  modelListSchema,
  profileNameSchema,
  providerSchema,
  providerSettingsViewSchema,
  reasoningEffortSchema,
  toolProtocolSchema,
} from './provider-schemas.js';
import { todoItemSchema } from './todo-items.js';
import { taskIdSchema } from './task-id-schema.js';
import { shownApprovalSchema } from './tool-details.js';
import { uiMessageSchema, uiUsageSchema } from './ui-messages.js';

export type { ProviderId as ProviderName } from './providers.js';
export * from './mcp-schemas.js';
export * from './provider-schemas.js';

/** Which screen of the panel is showing. */
export const PANEL_VIEWS = ['chat', 'settings', 'history', 'mcp'] as const;
export type PanelView = (typeof PANEL_VIEWS)[number];

const modeSchema = z.enum(['plan', 'act']);
/** A tool call waiting for the user's decision: the request as logged in its `approval_asked` event. */
export type PendingApproval = DeepReadonly<z.infer<typeof shownApprovalSchema>>;

/** A follow-up question from the model waiting for an answer. */
const pendingQuestionSchema = z.object({ question: z.string(), options: z.array(z.string()) });
export type PendingQuestion = DeepReadonly<z.infer<typeof pendingQuestionSchema>>;

/** `interrupted`: the log ends mid-run (the window was reloaded or Smith stopped); Resume continues it. */
const taskRunStatusSchema = z.enum(['idle', 'running', 'awaiting_approval', 'awaiting_answer', 'completed', 'failed', 'aborted', 'interrupted']);
export type TaskRunStatus = z.infer<typeof taskRunStatusSchema>;

/** What a request held (estimated tokens) against the model's window. */
const taskContextSchema = z.object({
  tokens: z.number(),
  window: z.number().optional(),
  system: z.number(),
  tools: z.number(),
  conversation: z.number(),
  results: z.number(),
  condenseAt: z.number().optional(),
});

/** The open task as the chat shows it. */
const taskViewSchema = z.object({
  id: z.string(),
  /** The newest messages of the chat (a snapshot carries a page of them); older ones are asked for with `olderMessages`. */
  messages: z.array(uiMessageSchema),
  /** The index of `messages[0]` in the whole chat: as many older messages exist. Absent: none. */
  messagesFrom: z.number().int().nonnegative().optional(),
  /** Lines of the task's log that could not be read (damaged, or torn by a crash), left out of the chat. */
  problems: z.array(z.string()).optional(),
  usage: uiUsageSchema,
  /** Cost in US dollars so far, when prices are known. */
  cost: z.number().optional(),
  mode: modeSchema,
  modeSlug: z.string(),
  status: taskRunStatusSchema,
  pendingApproval: shownApprovalSchema.optional(),
  pendingQuestion: pendingQuestionSchema.optional(),
  /** The last failure, shown with a retry button. */
  error: z.string().optional(),
  /** Messages sent while Smith worked, not yet delivered (they go with its next request), oldest first. */
  queued: z.array(z.string()).optional(),
  /** The todo list as the model (update_todo_list) or the user last left it; absent until there is one. */
  todos: z.array(todoItemSchema).optional(),
  /** What the latest request held (estimated tokens) against the model's window; absent before the first. */
  context: taskContextSchema.optional(),
});
export type TaskView = DeepReadonly<z.infer<typeof taskViewSchema>>;

/** The parts of the task view that change as a run goes: the usage line, the todo list, the context bar. */
const taskProgressSchema = taskViewSchema.pick({ usage: true, cost: true, todos: true, context: true });
export type TaskProgress = DeepReadonly<z.infer<typeof taskProgressSchema>>;

/**
 * A task the panel holds besides the one shown, or the one shown: running, waiting for the user, or
 * finished while not shown (listed until opened or closed). `status`: running (working),
 * awaiting_approval, awaiting_answer, completed (done), failed, aborted (stopped).
 */
const liveTaskSchema = z.object({
  id: z.string(),
  /** The first line of the task's text. */
  title: z.string(),
  status: taskRunStatusSchema,
  /** US dollars so far, when prices are known. */
  cost: z.number().optional(),
});
export type LiveTask = DeepReadonly<z.infer<typeof liveTaskSchema>>;

/** One stored task in the history list. */
const historyItemSchema = z.object({
  taskId: z.string(),
  task: z.string(),
  startedAt: z.number(),
  updatedAt: z.number(),
  status: z.string(),
  /** Bytes of checkpoint storage the task's snapshots take (shared contents counted); absent without checkpoints. */
  checkpointBytes: z.number().optional(),
  /** US dollars it cost, when its models' prices are known. */
  cost: z.number().optional(),
});
export type HistoryItem = DeepReadonly<z.infer<typeof historyItemSchema>>;

/** One completion for an @-mention in the Task box: what to insert after the `@`, and what it is. */
const mentionSuggestionSchema = z.object({ value: z.string(), label: z.string(), detail: z.string() });
export type MentionSuggestion = DeepReadonly<z.infer<typeof mentionSuggestionSchema>>;

/** The auto-approve toggles and the limits per task, as the user's settings hold them (the chat's auto-approve bar). */
const autoApproveViewSchema = z.object({
  readFiles: z.boolean(),
  editFiles: z.boolean(),
  /** Commands the model marked as safe (requires_approval false). */
  safeCommands: z.boolean(),
  allCommands: z.boolean(),
  mcpTools: z.boolean(),
  /** The web tools: browser launches and web_fetch hosts (absent: off). */
  browser: z.boolean().optional(),
  /** Model requests a task may make before Smith stops and asks. */
  maxRequests: z.number().int().min(1).max(10_000),
  /** US dollars a task may cost before Smith stops and asks; absent: no limit. */
  maxCost: z.number().positive().max(100_000).optional(),
  /** Commands run in the command sandbox (`smith.sandbox`): they can change the workspace, nothing else. */
  sandboxed: z.boolean().optional(),
});
export type AutoApproveView = DeepReadonly<z.infer<typeof autoApproveViewSchema>>;

/** Everything the panel renders; sent whole on `ready` and whenever the webview was hidden. */
const panelStateSchema = z.object({
  /**
   * The view the host last asked the panel to show (a title-bar command, a task sent before the
   * setup). It is a request, not the panel's current view: a webview follows it only when
   * `viewRequest` changes, so a later snapshot never takes back a view the user chose.
   */
  view: z.enum(PANEL_VIEWS),
  /** Names the host's latest request to show `view`; absent until the host has made one. */
  viewRequest: z.string().max(100).optional(),
  task: taskViewSchema.optional(),
  /** The tasks the panel runs or holds, oldest first (the shown one among them once it has run); kept current by `liveTasks`. */
  tasks: z.array(liveTaskSchema).optional(),
  settings: providerSettingsViewSchema,
  history: z.array(historyItemSchema),
  /** The stored tasks are still being read (after start-up); `history` is empty until a later snapshot brings them. */
  historyLoading: z.literal(true).optional(),
  modes: z.array(z.object({ slug: z.string(), name: z.string() })),
  /** Mode to start new tasks in. */
  mode: modeSchema,
  modeSlug: z.string(),
  /** MCP servers; kept current between snapshots by `mcpState`. */
  mcp: mcpPanelStateSchema,
  /** A task sent before the provider was set up; it waits, whatever view is showing, and starts once the setup is complete. */
  pendingTask: z.string().optional(),
  autoApprove: autoApproveViewSchema,
  /** The models last listed for the Settings view (`listModels`). */
  models: modelListSchema.optional(),
  /** Completions for the @-mention being typed (`suggestMentions`), with the text they are for. */
  mentionSuggestions: z.object({ query: z.string(), items: z.array(mentionSuggestionSchema) }).optional(),
  /** The rules files found for the open task (or the workspace), listed in the Settings view with a toggle each. */
  rules: z.array(z.object({ label: z.string(), active: z.boolean(), note: z.string().optional(), disabled: z.boolean() })).optional(),
  /** The Agent Skills found for the workspace, listed in the Settings view with where each comes from and a toggle each. */
  agentSkills: z
    .object({
      skills: z.array(
        z.object({
          name: z.string(),
          description: z.string().optional(),
          location: z.string(),
          scope: z.enum(['workspace', 'user', 'extra']),
          offered: z.boolean(),
          disabled: z.boolean(),
          note: z.string().optional(),
        }),
      ),
      /** What could not be read (a link out of the workspace, a huge or binary SKILL.md), one line each. */
      notes: z.array(z.string()),
    })
    .optional(),
  /** Completions for the `/command` being typed (`suggestCommands`): the user's command files and MCP prompts. */
  commandSuggestions: z.object({ query: z.string(), items: z.array(mentionSuggestionSchema) }).optional(),
  /** A sub-agent's chat the user opened (`openSubagentChat`) from the open task's use_subagents card: its own messages, read-only. */
  subagentChat: z
    .object({
      parentId: z.string(),
      taskId: z.string(),
      status: z.enum(['running', 'completed', 'failed', 'aborted']),
      messages: z.array(uiMessageSchema),
    })
    .optional(),
});
export type PanelState = DeepReadonly<z.infer<typeof panelStateSchema>>;

// Generous caps: a pasted log is fine, a runaway webview sending megabytes per message is not.
const MAX_TEXT = 1_000_000;
const id = z.string().min(1).max(200);
const text = z.string().max(MAX_TEXT);
const feedback = z.string().max(MAX_TEXT).optional();
/** Images pasted, dropped or attached in the Task box: a name and the bytes as base64 (5 MB each at most). */
const images = z
  .array(z.object({ name: z.string().min(1).max(300), data: z.string().max(7_000_000) }))
  .max(10)
  .optional();
// MCP server and tool names are keys of the user's config and the server's list; no other rule applies.
const mcpName = z.string().min(1).max(500);
/** The task a request is about; absent: the task shown in the chat. */
const aboutTask = taskIdSchema.optional();

/** Messages from the webview to the extension host; unknown fields are refused. */
const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  z.object({ type: z.literal('newTask'), id, text, images }).strict(),
  /** A message to the task `taskId` (absent: the shown one); with no task shown, a new task. */
  z.object({ type: z.literal('sendMessage'), id, text, images, taskId: aboutTask }).strict(),
  /**
   * `all`: approve the rest of the call's batch (the other calls of the same response) too.
   * `alwaysAllow`: also write the call's allow rules to the user's or the workspace's settings file.
   */
  z
    .object({
      type: z.literal('approve'),
      id,
      callId: id,
      taskId: aboutTask,
      feedback,
      all: z.boolean().optional(),
      alwaysAllow: z.enum(['user', 'workspace']).optional(),
    })
    .strict(),
  z.object({ type: z.literal('reject'), id, callId: id, taskId: aboutTask, feedback }).strict(),
  z.object({ type: z.literal('answer'), id, text, taskId: aboutTask }).strict(),
  /** Changes auto-approve toggles or limits (written to the user's settings; `maxCost` 0 removes the limit). */
  z
    .object({
      type: z.literal('setAutoApprove'),
      id,
      change: autoApproveViewSchema
        .extend({ maxCost: z.number().min(0).max(100_000) })
        .partial()
        .strict(),
    })
    .strict(),
  /** Condenses the task's history now (a summary replaces the older turns). */
  z.object({ type: z.literal('condense'), id, taskId: taskIdSchema }).strict(),
  /** The user's edit of the todo list (the model sees it with its next request). */
  z.object({ type: z.literal('editTodos'), id, taskId: taskIdSchema, items: z.array(todoItemSchema).max(200) }).strict(),
  /** Sends a message now while Smith works: the answer streaming now is cut off and the model reads the message at once. */
  z.object({ type: z.literal('steerMessage'), id, text, taskId: aboutTask }).strict(),
  /**
   * Changes (with `text`) or removes (without) a queued message not yet delivered. `was` is the text
   * shown, so a queue that moved meanwhile (a message delivered) is never edited in the wrong place.
   */
  z
    .object({ type: z.literal('updateQueued'), id, index: z.number().int().nonnegative().max(1000), was: text, text: text.optional(), taskId: aboutTask })
    .strict(),
  /** Stops the running step of `taskId` (absent: the shown task); the task stays listed, the others run on. */
  z.object({ type: z.literal('cancelTask'), id, taskId: aboutTask }).strict(),
  /** Closes a task the panel holds: a running one is stopped first, its commands end; the other tasks run on. */
  z.object({ type: z.literal('closeTask'), id, taskId: taskIdSchema }).strict(),
  /** Lets the running command of `callId` continue in the background while the agent goes on. */
  z.object({ type: z.literal('proceedCommand'), id, callId: id, taskId: aboutTask }).strict(),
  /** Stops one running sub-agent (its task id) of a use_subagents call; the others go on. */
  z.object({ type: z.literal('stopSubagent'), id, taskId: taskIdSchema }).strict(),
  /** Shows one sub-agent's own chat (its task id) of the open task, in place of the task's; `closeSubagentChat` goes back. */
  z.object({ type: z.literal('openSubagentChat'), id, taskId: taskIdSchema }).strict(),
  z.object({ type: z.literal('closeSubagentChat'), id }).strict(),
  z.object({ type: z.literal('retry'), id, taskId: aboutTask }).strict(),
  z.object({ type: z.literal('setMode'), id, mode: modeSchema }).strict(),
  z.object({ type: z.literal('setModeSlug'), id, modeSlug: z.string().min(1).max(200) }).strict(),
  /** The user opened a view of the panel (the host refreshes what it lists; it never moves another webview). */
  z.object({ type: z.literal('showView'), id, view: z.enum(PANEL_VIEWS) }).strict(),
  /** Gives the task waiting for the provider setup back to the Task box: it no longer starts by itself. */
  z.object({ type: z.literal('returnPendingTask'), id }).strict(),
  z
    .object({
      type: z.literal('saveSettings'),
      id,
      provider: providerSchema,
      model: z.string().max(500),
      baseUrl: z.string().max(2000),
      toolProtocol: toolProtocolSchema,
      planModel: z.string().max(500).optional(),
      actModel: z.string().max(500).optional(),
      /** A profile's name, or '' for none. */
      planProfile: z.union([profileNameSchema, z.literal('')]).optional(),
      actProfile: z.union([profileNameSchema, z.literal('')]).optional(),
      reasoningEffort: reasoningEffortSchema.optional(),
      /** A new key to store; omitted to keep the stored one. */
      apiKey: z.string().max(10_000).optional(),
      /** Also keep this choice as the profile of that name (replacing one of the same name). */
      saveAsProfile: profileNameSchema.optional(),
    })
    .strict(),
  /** Completions for the @-mention being typed (`query`: the text after the `@`); they arrive in the state's `mentionSuggestions`. */
  z.object({ type: z.literal('suggestMentions'), id, query: z.string().max(500) }).strict(),
  /** Turns a rules file on or off (by its label); the model's next request follows. */
  z.object({ type: z.literal('setRuleEnabled'), id, label: z.string().min(1).max(1000), enabled: z.boolean() }).strict(),
  /** Turns an Agent Skill on or off (by its name, whatever folder it is in); the model's next request follows. */
  z.object({ type: z.literal('setSkillEnabled'), id, name: z.string().min(1).max(200), enabled: z.boolean() }).strict(),
  /** Completions for the `/command` being typed at the start of the Task box (`query`: the text after the `/`). */
  z.object({ type: z.literal('suggestCommands'), id, query: z.string().max(500) }).strict(),
  /** Lists the models of the provider and server the Settings form names now (the stored key is used); they arrive in the state's `models`. */
  z.object({ type: z.literal('listModels'), id, provider: providerSchema, baseUrl: z.string().max(2000) }).strict(),
  z.object({ type: z.literal('openTask'), id, taskId: taskIdSchema }).strict(),
  /** The page of the open task's messages before the message keyed `before`: answered with `olderMessages`, then the reply. */
  z.object({ type: z.literal('olderMessages'), id, taskId: taskIdSchema, before: z.string().min(1).max(200) }).strict(),
  z.object({ type: z.literal('deleteTask'), id, taskId: taskIdSchema }).strict(),
  z.object({ type: z.literal('exportTask'), id, taskId: taskIdSchema }).strict(),
  /** Runs the stored task again with `model` (the Settings' provider) in a scratch copy of its workspace; the comparison opens when it is done. */
  z.object({ type: z.literal('replayTask'), id, taskId: taskIdSchema, model: z.string().trim().min(1).max(500) }).strict(),
  /** Opens VS Code's multi-file diff: every file that differs between the checkpoint and now. */
  z.object({ type: z.literal('compareCheckpoint'), id, taskId: taskIdSchema, checkpointId: z.string().max(50) }).strict(),
  /** Opens the screenshot of a browser_action call (its result's image) in an editor tab. */
  z.object({ type: z.literal('openScreenshot'), id, taskId: taskIdSchema, callId: id }).strict(),
  /** Puts the files, the conversation or both back to the checkpoint (asks first before overwriting later changes). */
  z
    .object({
      type: z.literal('restoreCheckpoint'),
      id,
      taskId: taskIdSchema,
      checkpointId: z.string().max(50),
      scope: z.enum(['files', 'conversation', 'both']),
    })
    .strict(),
  /** Rewinds to just before the user's message at `seq` (and its files, with `restoreFiles`) and sends `text` instead. */
  z.object({ type: z.literal('editMessage'), id, taskId: taskIdSchema, seq: z.number().int().nonnegative(), text, restoreFiles: z.boolean() }).strict(),
  /** Reconnects a server from scratch (also after it gave up reconnecting). */
  z.object({ type: z.literal('mcpRestart'), id, server: mcpName }).strict(),
  /** Sets `"disabled"` in the config file that defines the server; the file watcher applies it. */
  z.object({ type: z.literal('mcpSetDisabled'), id, server: mcpName, disabled: z.boolean() }).strict(),
  /** Adds the tool to (or removes it from) the server's `autoApprove` in its config file; applies without a restart. */
  z.object({ type: z.literal('mcpSetAutoApprove'), id, server: mcpName, tool: mcpName, autoApprove: z.boolean() }).strict(),
  /** Opens a config file in an editor, creating it with `{"mcpServers": {}}` when missing. */
  z.object({ type: z.literal('mcpOpenConfig'), id, scope: z.enum(['global', 'workspace']) }).strict(),
  /** Shows the server's recent stderr and log messages in a read-only editor. */
  z.object({ type: z.literal('mcpShowLog'), id, server: mcpName }).strict(),
  /** Searches the MCP Registry (`cursor`: the next page, added to the list); the results arrive in the MCP state's `registry`. */
  z.object({ type: z.literal('mcpRegistrySearch'), id, query: z.string().max(500), cursor: z.string().max(2000).optional() }).strict(),
  /** Installs a server of the last search into the user's or the workspace's config; secret inputs go to secret storage. */
  z
    .object({
      type: z.literal('mcpRegistryInstall'),
      id,
      name: z.string().min(1).max(200),
      scope: z.enum(['user', 'workspace']),
      values: z.record(z.string().max(200), z.string().max(10_000)),
      remote: z.boolean().optional(),
    })
    .strict(),
  /**
   * Answers a server's form: `accept` with the content (checked against the form's schema; a
   * mismatch is an error reply and the form stays), or `decline` / `cancel` without.
   */
  z
    .object({
      type: z.literal('mcpAnswerElicitation'),
      id,
      elicitationId: id,
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z.record(z.string().max(500), z.union([z.string().max(100_000), z.number(), z.boolean(), z.array(z.string().max(10_000)).max(500)])).optional(),
    })
    .strict(),
  /** Signs in to a remote server with OAuth in the browser; resolves when signed in (or failed). */
  z.object({ type: z.literal('mcpSignIn'), id, server: mcpName }).strict(),
  /** Forgets a remote server's OAuth tokens and registered client. */
  z.object({ type: z.literal('mcpSignOut'), id, server: mcpName }).strict(),
]);
export type WebviewMessage = DeepReadonly<z.infer<typeof webviewMessageSchema>>;

/** The request types of the webview, i.e. every message but `ready`. */
export type WebviewRequest = Exclude<WebviewMessage, { type: 'ready' }>;

/** Messages from the extension host to the webview. */
const hostMessageSchema = z.union([
  /**
   * The whole panel state, with the open task's assistant message as it streams at that moment (absent
   * between responses): one message, so the logged message and a stale streamed copy never show together.
   */
  /**
   * The webview keeps older messages it paged in before the snapshot's `messagesFrom`, unless
   * `dropOlder`: some of them changed while it could not be told (it was hidden).
   */
  z.object({
    type: z.literal('snapshot'),
    state: panelStateSchema,
    streaming: z.object({ key: z.string().optional(), text: z.string(), reasoning: z.string() }).optional(),
    dropOlder: z.literal(true).optional(),
  }),
  /**
   * Replaces the open task's messages from index `start` on (most updates touch only the tail).
   * `reset`: messages before `start` changed too and are not sent: the webview drops the ones it
   * holds and asks for them again (`olderMessages`).
   */
  z.object({
    type: z.literal('taskMessages'),
    taskId: z.string(),
    start: z.number().int().nonnegative(),
    messages: z.array(uiMessageSchema),
    reset: z.literal(true).optional(),
  }),
  /** The answer to an `olderMessages` request: the messages just before `before`, the first at index `start`. */
  z.object({
    type: z.literal('olderMessages'),
    taskId: z.string(),
    before: z.string(),
    start: z.number().int().nonnegative(),
    messages: z.array(uiMessageSchema),
  }),
  /**
   * The assistant's message as it streams (transient, replaced by the logged one): `text` and
   * `reasoning` replace what the view holds from `textFrom` / `reasoningFrom` on (default 0, the
   * whole message), so a growing message is sent by appending. `key` names the message: a part
   * with an offset applies only to the message of the same key.
   */
  z.object({
    type: z.literal('streaming'),
    taskId: z.string(),
    key: z.string().optional(),
    textFrom: z.number().int().nonnegative().optional(),
    text: z.string(),
    reasoningFrom: z.number().int().nonnegative().optional(),
    reasoning: z.string(),
  }),
  /**
   * The open task's usage, todo list and context figures after a logged event changed them (a
   * response, a todo update, a new request measured): absent fields are absent from the task view too.
   */
  z.object({ type: z.literal('taskProgress'), taskId: z.string(), progress: taskProgressSchema }),
  /** Live output of a running command of the task `taskId` (the host names it; a webview showing another task ignores it). */
  z.object({ type: z.literal('commandOutput'), taskId: z.string().optional(), callId: z.string(), text: z.string() }),
  /** The panel's task list after a task's status or cost changed (a task not shown included), without the rest of the state. */
  z.object({ type: z.literal('liveTasks'), tasks: z.array(liveTaskSchema) }),
  /**
   * The MCP part of the state after the window's MCP hub changed (status, lists, config), so a
   * connecting server does not resend the whole task. Coalesced; while the webview is hidden the
   * next snapshot carries it instead. Changes a request caused arrive before its reply.
   */
  z.object({ type: z.literal('mcpState'), state: mcpPanelStateSchema }),
  /**
   * Text for the Task box (an editor selection as a fenced block): appended to the draft, which
   * gets the focus. Sent once, to the first chat webview that is ready and visible.
   */
  z.object({ type: z.literal('insertText'), text: z.string() }),
  z.object({ type: z.literal('reply'), id: z.string(), ok: z.literal(true) }),
  z.object({ type: z.literal('reply'), id: z.string(), ok: z.literal(false), error: z.string() }),
]);
export type HostMessage = DeepReadonly<z.infer<typeof hostMessageSchema>>;

/** The outcome of checking one incoming message. */
type Parsed<T> =
  | { readonly ok: true; readonly message: T }
  /** `id` is the request id when the message had a usable one, so the error can be replied to. */
  | { readonly ok: false; readonly error: string; readonly id?: string };

/** Validates a message from the webview before anything acts on it. */
export function parseWebviewMessage(raw: unknown): Parsed<WebviewMessage> {
  return parseWith(webviewMessageSchema, raw);
}

/** Validates a message from the host before the webview's state takes it. */
export function parseHostMessage(raw: unknown): Parsed<HostMessage> {
  return parseWith(hostMessageSchema, raw);
}

function parseWith<T>(schema: z.ZodType<T>, raw: unknown): Parsed<T> {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  const issues = result.error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
  const record = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown; id?: unknown }) : {};
  const type = record.type;
  const requestId = record.id;
  return {
    ok: false,
    error: `Invalid ${typeof type === 'string' ? `"${type.slice(0, 50)}" ` : ''}message: ${issues}`,
    ...(typeof requestId === 'string' && requestId.length > 0 && requestId.length <= 200 ? { id: requestId } : {}),
  };
}
