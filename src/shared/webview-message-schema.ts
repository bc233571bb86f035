// The messages the webview sends the extension host: requests with an id, each answered by one `reply`.
import { z } from 'zod';
import type { DeepReadonly } from './deep-readonly.js';
import { todoItemSchema } from './todo-items.js';
import { taskIdSchema } from './task-id-schema.js';
import { profileNameSchema, providerSchema, reasoningEffortSchema, toolProtocolSchema } from './provider-schemas.js';
import { PANEL_VIEWS, modeSchema, autoApproveViewSchema, worktreeActionSchema } from './panel-state-schema.js';

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
export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  /**
   * `worktree`: run the task in a new git worktree and branch of its own (docs/parallel-tasks.md),
   * named `worktreeName` (absent: from the task) and made from the local branch `worktreeBase`
   * (absent: the one checked out); both only with `worktree`.
   */
  z
    .object({
      type: z.literal('newTask'),
      id,
      text,
      images,
      worktree: z.boolean().optional(),
      worktreeName: z.string().trim().min(1).max(200).optional(),
      worktreeBase: z.string().trim().min(1).max(250).optional(),
    })
    .strict()
    .refine((m) => m.worktree === true || (m.worktreeName === undefined && m.worktreeBase === undefined), {
      message: 'worktreeName and worktreeBase go with worktree: true',
    }),
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
      /** Write the last preview's file changes instead of running the command (docs/command-preview.md). */
      applyPreview: z.boolean().optional(),
    })
    .strict(),
  /** Runs the pending command on a copy of the workspace and shows what it would change (its diff in the editor). */
  z.object({ type: z.literal('previewCommand'), id, callId: id, taskId: aboutTask }).strict(),
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
  /** Acts on a finished task's worktree: review its changes, merge, open a pull request, keep the branch, or discard it (asks first when that loses work). */
  z.object({ type: z.literal('worktreeAction'), id, taskId: taskIdSchema, action: worktreeActionSchema }).strict(),
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
  /** Lists the workspace repository's local branches a new worktree can start from; they arrive in the state's `baseBranches`. */
  z.object({ type: z.literal('listBaseBranches'), id }).strict(),
  z.object({ type: z.literal('openTask'), id, taskId: taskIdSchema }).strict(),
  /** The page of the open task's messages before the message keyed `before`: answered with `olderMessages`, then the reply. */
  z.object({ type: z.literal('olderMessages'), id, taskId: taskIdSchema, before: z.string().min(1).max(200) }).strict(),
  z.object({ type: z.literal('deleteTask'), id, taskId: taskIdSchema }).strict(),
  z.object({ type: z.literal('exportTask'), id, taskId: taskIdSchema }).strict(),
  /** Runs the stored task again with `model` (the Settings' provider) in a scratch copy of its workspace; the comparison opens when it is done. */
  z.object({ type: z.literal('replayTask'), id, taskId: taskIdSchema, model: z.string().trim().min(1).max(500) }).strict(),
  /** Asks for a test command and finds the step of the task after which it fails, in scratch copies of its checkpoints (docs/bisect.md). */
  z.object({ type: z.literal('bisectTask'), id, taskId: taskIdSchema }).strict(),
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
