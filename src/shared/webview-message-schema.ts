// The messages the webview sends the extension host: requests with an id, each answered by one `reply`.
import * as z from './zod-config.js';
import type { DeepReadonly } from './deep-readonly.js';
import { todoItemSchema } from './todo-items.js';
import { taskIdSchema } from './task-id-schema.js';
import { profileNameSchema, providerSchema, reasoningEffortSchema, toolProtocolSchema } from './provider-schemas.js';
import { PANEL_VIEWS, modeSchema, autoApproveViewSchema, worktreeActionSchema } from './panel-state-schema.js';

// Generous caps: a pasted log is fine, a runaway webview sending megabytes per message is not.
const MAX_TEXT = 1_000_000;
const id = z.string().check(z.minLength(1), z.maxLength(200));
const text = z.string().check(z.maxLength(MAX_TEXT));
const feedback = z.optional(z.string().check(z.maxLength(MAX_TEXT)));
/** Images pasted, dropped or attached in the Task box: a name and the bytes as base64 (5 MB each at most). */
const images = z.optional(
  z.array(z.object({ name: z.string().check(z.minLength(1), z.maxLength(300)), data: z.string().check(z.maxLength(7_000_000)) })).check(z.maxLength(10)),
);
// MCP server and tool names are keys of the user's config and the server's list; no other rule applies.
const mcpName = z.string().check(z.minLength(1), z.maxLength(500));
/** The task a request is about; absent: the task shown in the chat. */
const aboutTask = z.optional(taskIdSchema);

/** Messages from the webview to the extension host; unknown fields are refused. */
export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  /**
   * `worktree`: run the task in a new git worktree and branch of its own (docs/parallel-tasks.md),
   * named `worktreeName` (absent: from the task) and made from the local branch `worktreeBase`
   * (absent: the one checked out); both only with `worktree`.
   */
  z
    .strictObject({
      type: z.literal('newTask'),
      id,
      text,
      images,
      worktree: z.optional(z.boolean()),
      worktreeName: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
      worktreeBase: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(250))),
    })
    .check(
      z.refine((m) => m.worktree === true || (m.worktreeName === undefined && m.worktreeBase === undefined), {
        message: 'worktreeName and worktreeBase go with worktree: true',
      }),
    ),
  /** A message to the task `taskId` (absent: the shown one); with no task shown, a new task. */
  z.strictObject({ type: z.literal('sendMessage'), id, text, images, taskId: aboutTask }),
  /**
   * `all`: approve the rest of the call's batch (the other calls of the same response) too.
   * `alwaysAllow`: also write the call's allow rules to the user's or the workspace's settings file.
   */
  z.strictObject({
    type: z.literal('approve'),
    id,
    callId: id,
    taskId: aboutTask,
    feedback,
    all: z.optional(z.boolean()),
    alwaysAllow: z.optional(z.enum(['user', 'workspace'])),
    /** Write the last preview's file changes instead of running the command (docs/command-preview.md). */
    applyPreview: z.optional(z.boolean()),
  }),
  /** Runs the pending command on a copy of the workspace and shows what it would change (its diff in the editor). */
  z.strictObject({ type: z.literal('previewCommand'), id, callId: id, taskId: aboutTask }),
  z.strictObject({ type: z.literal('reject'), id, callId: id, taskId: aboutTask, feedback }),
  z.strictObject({ type: z.literal('answer'), id, text, taskId: aboutTask }),
  /** Changes auto-approve toggles or limits (written to the user's settings; `maxCost` 0 removes the limit). */
  z.strictObject({
    type: z.literal('setAutoApprove'),
    id,
    change: z.partial(z.strictObject({ ...autoApproveViewSchema.shape, maxCost: z.number().check(z.gte(0), z.lte(100_000)) })),
  }),
  /** Condenses the task's history now (a summary replaces the older turns). */
  z.strictObject({ type: z.literal('condense'), id, taskId: taskIdSchema }),
  /** The user's edit of the todo list (the model sees it with its next request). */
  z.strictObject({ type: z.literal('editTodos'), id, taskId: taskIdSchema, items: z.array(todoItemSchema).check(z.maxLength(200)) }),
  /** Sends a message now while Smith works: the answer streaming now is cut off and the model reads the message at once. */
  z.strictObject({ type: z.literal('steerMessage'), id, text, taskId: aboutTask }),
  /**
   * Changes (with `text`) or removes (without) a queued message not yet delivered. `was` is the text
   * shown, so a queue that moved meanwhile (a message delivered) is never edited in the wrong place.
   */
  z.strictObject({
    type: z.literal('updateQueued'),
    id,
    index: z.number().check(z.int(), z.nonnegative(), z.lte(1000)),
    was: text,
    text: z.optional(text),
    taskId: aboutTask,
  }),
  /** Stops the running step of `taskId` (absent: the shown task); the task stays listed, the others run on. */
  z.strictObject({ type: z.literal('cancelTask'), id, taskId: aboutTask }),
  /** Closes a task the panel holds: a running one is stopped first, its commands end; the other tasks run on. */
  z.strictObject({ type: z.literal('closeTask'), id, taskId: taskIdSchema }),
  /** Acts on a finished task's worktree: review its changes, merge, open a pull request, keep the branch, or discard it (asks first when that loses work). */
  z.strictObject({ type: z.literal('worktreeAction'), id, taskId: taskIdSchema, action: worktreeActionSchema }),
  /** Lets the running command of `callId` continue in the background while the agent goes on. */
  z.strictObject({ type: z.literal('proceedCommand'), id, callId: id, taskId: aboutTask }),
  /** Stops one running sub-agent (its task id) of a use_subagents call; the others go on. */
  z.strictObject({ type: z.literal('stopSubagent'), id, taskId: taskIdSchema }),
  /** Shows one sub-agent's own chat (its task id) of the open task, in place of the task's; `closeSubagentChat` goes back. */
  z.strictObject({ type: z.literal('openSubagentChat'), id, taskId: taskIdSchema }),
  z.strictObject({ type: z.literal('closeSubagentChat'), id }),
  z.strictObject({ type: z.literal('retry'), id, taskId: aboutTask }),
  z.strictObject({ type: z.literal('setMode'), id, mode: modeSchema }),
  z.strictObject({ type: z.literal('setModeSlug'), id, modeSlug: z.string().check(z.minLength(1), z.maxLength(200)) }),
  /** The user opened a view of the panel (the host refreshes what it lists; it never moves another webview). */
  z.strictObject({ type: z.literal('showView'), id, view: z.enum(PANEL_VIEWS) }),
  /** Gives the task waiting for the provider setup back to the Task box: it no longer starts by itself. */
  z.strictObject({ type: z.literal('returnPendingTask'), id }),
  z.strictObject({
    type: z.literal('saveSettings'),
    id,
    provider: providerSchema,
    model: z.string().check(z.maxLength(500)),
    baseUrl: z.string().check(z.maxLength(2000)),
    toolProtocol: toolProtocolSchema,
    planModel: z.optional(z.string().check(z.maxLength(500))),
    actModel: z.optional(z.string().check(z.maxLength(500))),
    /** A profile's name, or '' for none. */
    planProfile: z.optional(z.union([profileNameSchema, z.literal('')])),
    actProfile: z.optional(z.union([profileNameSchema, z.literal('')])),
    reasoningEffort: z.optional(reasoningEffortSchema),
    /** A new key to store; omitted to keep the stored one. */
    apiKey: z.optional(z.string().check(z.maxLength(10_000))),
    /** Also keep this choice as the profile of that name (replacing one of the same name). */
    saveAsProfile: z.optional(profileNameSchema),
  }),
  /** Completions for the @-mention being typed (`query`: the text after the `@`); they arrive in the state's `mentionSuggestions`. */
  z.strictObject({ type: z.literal('suggestMentions'), id, query: z.string().check(z.maxLength(500)) }),
  /** Turns a rules file on or off (by its label); the model's next request follows. */
  z.strictObject({ type: z.literal('setRuleEnabled'), id, label: z.string().check(z.minLength(1), z.maxLength(1000)), enabled: z.boolean() }),
  /** Turns an Agent Skill on or off (by its name, whatever folder it is in); the model's next request follows. */
  z.strictObject({ type: z.literal('setSkillEnabled'), id, name: z.string().check(z.minLength(1), z.maxLength(200)), enabled: z.boolean() }),
  /** Completions for the `/command` being typed at the start of the Task box (`query`: the text after the `/`). */
  z.strictObject({ type: z.literal('suggestCommands'), id, query: z.string().check(z.maxLength(500)) }),
  /** Lists the models of the provider and server the Settings form names now (the stored key is used); they arrive in the state's `models`. */
  z.strictObject({ type: z.literal('listModels'), id, provider: providerSchema, baseUrl: z.string().check(z.maxLength(2000)) }),
  /** Lists the workspace repository's local branches a new worktree can start from; they arrive in the state's `baseBranches`. */
  z.strictObject({ type: z.literal('listBaseBranches'), id }),
  z.strictObject({ type: z.literal('openTask'), id, taskId: taskIdSchema }),
  /** The page of the open task's messages before the message keyed `before`: answered with `olderMessages`, then the reply. */
  z.strictObject({ type: z.literal('olderMessages'), id, taskId: taskIdSchema, before: z.string().check(z.minLength(1), z.maxLength(200)) }),
  z.strictObject({ type: z.literal('deleteTask'), id, taskId: taskIdSchema }),
  z.strictObject({ type: z.literal('exportTask'), id, taskId: taskIdSchema }),
  /** Runs the stored task again with `model` (the Settings' provider) in a scratch copy of its workspace; the comparison opens when it is done. */
  z.strictObject({ type: z.literal('replayTask'), id, taskId: taskIdSchema, model: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)) }),
  /** Asks for a test command and finds the step of the task after which it fails, in scratch copies of its checkpoints (docs/bisect.md). */
  z.strictObject({ type: z.literal('bisectTask'), id, taskId: taskIdSchema }),
  /** Opens VS Code's multi-file diff: every file that differs between the checkpoint and now. */
  z.strictObject({ type: z.literal('compareCheckpoint'), id, taskId: taskIdSchema, checkpointId: z.string().check(z.maxLength(50)) }),
  /** Opens the screenshot of a browser_action call (its result's image) in an editor tab. */
  z.strictObject({ type: z.literal('openScreenshot'), id, taskId: taskIdSchema, callId: id }),
  /** Puts the files, the conversation or both back to the checkpoint (asks first before overwriting later changes). */
  z.strictObject({
    type: z.literal('restoreCheckpoint'),
    id,
    taskId: taskIdSchema,
    checkpointId: z.string().check(z.maxLength(50)),
    scope: z.enum(['files', 'conversation', 'both']),
  }),
  /** Rewinds to just before the user's message at `seq` (and its files, with `restoreFiles`) and sends `text` instead. */
  z.strictObject({
    type: z.literal('editMessage'),
    id,
    taskId: taskIdSchema,
    seq: z.number().check(z.int(), z.nonnegative()),
    text,
    restoreFiles: z.boolean(),
  }),
  /** Reconnects a server from scratch (also after it gave up reconnecting). */
  z.strictObject({ type: z.literal('mcpRestart'), id, server: mcpName }),
  /** Sets `"disabled"` in the config file that defines the server; the file watcher applies it. */
  z.strictObject({ type: z.literal('mcpSetDisabled'), id, server: mcpName, disabled: z.boolean() }),
  /** Adds the tool to (or removes it from) the server's `autoApprove` in its config file; applies without a restart. */
  z.strictObject({ type: z.literal('mcpSetAutoApprove'), id, server: mcpName, tool: mcpName, autoApprove: z.boolean() }),
  /** Opens a config file in an editor, creating it with `{"mcpServers": {}}` when missing. */
  z.strictObject({ type: z.literal('mcpOpenConfig'), id, scope: z.enum(['global', 'workspace']) }),
  /** Shows the server's recent stderr and log messages in a read-only editor. */
  z.strictObject({ type: z.literal('mcpShowLog'), id, server: mcpName }),
  /** Searches the MCP Registry (`cursor`: the next page, added to the list); the results arrive in the MCP state's `registry`. */
  z.strictObject({
    type: z.literal('mcpRegistrySearch'),
    id,
    query: z.string().check(z.maxLength(500)),
    cursor: z.optional(z.string().check(z.maxLength(2000))),
  }),
  /** Installs a server of the last search into the user's or the workspace's config; secret inputs go to secret storage. */
  z.strictObject({
    type: z.literal('mcpRegistryInstall'),
    id,
    name: z.string().check(z.minLength(1), z.maxLength(200)),
    scope: z.enum(['user', 'workspace']),
    values: z.record(z.string().check(z.maxLength(200)), z.string().check(z.maxLength(10_000))),
    remote: z.optional(z.boolean()),
  }),
  /**
   * Answers a server's form: `accept` with the content (checked against the form's schema; a
   * mismatch is an error reply and the form stays), or `decline` / `cancel` without.
   */
  z.strictObject({
    type: z.literal('mcpAnswerElicitation'),
    id,
    elicitationId: id,
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z.optional(
      z.record(
        z.string().check(z.maxLength(500)),
        z.union([z.string().check(z.maxLength(100_000)), z.number(), z.boolean(), z.array(z.string().check(z.maxLength(10_000))).check(z.maxLength(500))]),
      ),
    ),
  }),
  /** Signs in to a remote server with OAuth in the browser; resolves when signed in (or failed). */
  z.strictObject({ type: z.literal('mcpSignIn'), id, server: mcpName }),
  /** Forgets a remote server's OAuth tokens and registered client. */
  z.strictObject({ type: z.literal('mcpSignOut'), id, server: mcpName }),
]);
export type WebviewMessage = DeepReadonly<z.infer<typeof webviewMessageSchema>>;

/** The request types of the webview, i.e. every message but `ready`. */
export type WebviewRequest = Exclude<WebviewMessage, { type: 'ready' }>;
