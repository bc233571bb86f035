// What the panel shows: its state as the host sends it whole, and the parts sent on their own.
import * as z from './zod-config.js';
import type { DeepReadonly } from './deep-readonly.js';
import { mcpPanelStateSchema } from './mcp-schemas.js';
import { todoItemSchema } from './todo-items.js';
import { shownApprovalSchema } from './tool-details.js';
import { approvalPreviewSchema } from './command-preview-facts.js';
import { modelListSchema, providerSettingsViewSchema } from './provider-schemas.js';
import { uiMessageSchema, uiUsageSchema } from './ui-messages.js';

/** Which screen of the panel is showing. */
export const PANEL_VIEWS = ['chat', 'settings', 'history', 'mcp'] as const;
export type PanelView = (typeof PANEL_VIEWS)[number];

export const modeSchema = z.enum(['plan', 'act']);
/** A tool call waiting for the user's decision: the request as logged in its `approval_asked` event. */
/** An approval waiting in the panel: what the engine logged as shown, and for a command its preview (docs/command-preview.md). */
const pendingApprovalSchema = z.extend(shownApprovalSchema, {
  /** Present when a preview is offered: empty until the user asks for one. */
  preview: z.optional(approvalPreviewSchema),
});
export type PendingApproval = DeepReadonly<z.infer<typeof pendingApprovalSchema>>;

/** A follow-up question from the model waiting for an answer. */
const pendingQuestionSchema = z.object({ question: z.string(), options: z.array(z.string()) });
export type PendingQuestion = DeepReadonly<z.infer<typeof pendingQuestionSchema>>;

/** `interrupted`: the log ends mid-run (the window was reloaded or Smith stopped); Resume continues it. */
const taskRunStatusSchema = z.enum(['idle', 'running', 'awaiting_approval', 'awaiting_answer', 'completed', 'failed', 'aborted', 'interrupted']);
export type TaskRunStatus = z.infer<typeof taskRunStatusSchema>;

/** What a request held (estimated tokens) against the model's window. */
const taskContextSchema = z.object({
  tokens: z.number(),
  window: z.optional(z.number()),
  system: z.number(),
  tools: z.number(),
  conversation: z.number(),
  results: z.number(),
  condenseAt: z.optional(z.number()),
});

/** The open task as the chat shows it. */
const taskViewSchema = z.object({
  id: z.string(),
  /** The newest messages of the chat (a snapshot carries a page of them); older ones are asked for with `olderMessages`. */
  messages: z.array(uiMessageSchema),
  /** The index of `messages[0]` in the whole chat: as many older messages exist. Absent: none. */
  messagesFrom: z.optional(z.number().check(z.int(), z.nonnegative())),
  /** Lines of the task's log that could not be read (damaged, or torn by a crash), left out of the chat. */
  problems: z.optional(z.array(z.string())),
  usage: uiUsageSchema,
  /** Cost in US dollars so far, when prices are known. */
  cost: z.optional(z.number()),
  mode: modeSchema,
  modeSlug: z.string(),
  status: taskRunStatusSchema,
  pendingApproval: z.optional(pendingApprovalSchema),
  pendingQuestion: z.optional(pendingQuestionSchema),
  /** The last failure, shown with a retry button. */
  error: z.optional(z.string()),
  /** Messages sent while Smith worked, not yet delivered (they go with its next request), oldest first. */
  queued: z.optional(z.array(z.string())),
  /** The todo list as the model (update_todo_list) or the user last left it; absent until there is one. */
  todos: z.optional(z.array(todoItemSchema)),
  /** What the latest request held (estimated tokens) against the model's window; absent before the first. */
  context: z.optional(taskContextSchema),
});
export type TaskView = DeepReadonly<z.infer<typeof taskViewSchema>>;

/** The parts of the task view that change as a run goes: the usage line, the todo list, the context bar. */
export const taskProgressSchema = z.pick(taskViewSchema, { usage: true, cost: true, todos: true, context: true });
export type TaskProgress = DeepReadonly<z.infer<typeof taskProgressSchema>>;

/** What the user can do with a finished task's worktree. */
export const worktreeActionSchema = z.enum(['review', 'merge', 'pullRequest', 'keep', 'discard']);
export type WorktreeAction = z.infer<typeof worktreeActionSchema>;

/** A task's git worktree (docs/parallel-tasks.md), as the task list shows it. */
const worktreeViewSchema = z.object({
  name: z.string(),
  /** `smith/<name>`. */
  branch: z.string(),
  /** The branch it was made from and merges back into. */
  base: z.string(),
  path: z.string(),
  /** What the user did with it: merged, opened a pull request, kept the branch, discarded it. */
  outcome: z.optional(z.enum(['merged', 'pull-request', 'kept', 'discarded'])),
  /** The pull request's address. */
  url: z.optional(z.string()),
  /** The git commands run for it, newest last, each listed as it starts. */
  commands: z.array(z.string()),
});
export type WorktreeView = DeepReadonly<z.infer<typeof worktreeViewSchema>>;

/**
 * A task the panel holds besides the one shown, or the one shown: running, waiting for the user, or
 * finished while not shown (listed until opened or closed). `status`: running (working),
 * awaiting_approval, awaiting_answer, completed (done), failed, aborted (stopped).
 */
export const liveTaskSchema = z.object({
  id: z.string(),
  /** The first line of the task's text. */
  title: z.string(),
  status: taskRunStatusSchema,
  /** US dollars so far, when prices are known. */
  cost: z.optional(z.number()),
  /** The git worktree it runs in, when it has one of its own. */
  worktree: z.optional(worktreeViewSchema),
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
  checkpointBytes: z.optional(z.number()),
  /** US dollars it cost, when its models' prices are known. */
  cost: z.optional(z.number()),
});
export type HistoryItem = DeepReadonly<z.infer<typeof historyItemSchema>>;

/** One completion for an @-mention in the Task box: what to insert after the `@`, and what it is. */
const mentionSuggestionSchema = z.object({ value: z.string(), label: z.string(), detail: z.string() });
export type MentionSuggestion = DeepReadonly<z.infer<typeof mentionSuggestionSchema>>;

/** The auto-approve toggles and the limits per task, as the user's settings hold them (the chat's auto-approve bar). */
export const autoApproveViewSchema = z.object({
  readFiles: z.boolean(),
  editFiles: z.boolean(),
  /** Commands the model marked as safe (requires_approval false). */
  safeCommands: z.boolean(),
  allCommands: z.boolean(),
  mcpTools: z.boolean(),
  /** The web tools: browser launches, web_fetch hosts and web searches (absent: off). */
  browser: z.optional(z.boolean()),
  /** Model requests a task may make before Smith stops and asks. */
  maxRequests: z.number().check(z.int(), z.gte(1), z.lte(10_000)),
  /** US dollars a task may cost before Smith stops and asks; absent: no limit. */
  maxCost: z.optional(z.number().check(z.positive(), z.lte(100_000))),
  /** Commands run in the command sandbox (`smith.sandbox`): they can change the workspace, nothing else. */
  sandboxed: z.optional(z.boolean()),
});
export type AutoApproveView = DeepReadonly<z.infer<typeof autoApproveViewSchema>>;

/** Everything the panel renders; sent whole on `ready` and whenever the webview was hidden. */
export const panelStateSchema = z.object({
  /**
   * The view the host last asked the panel to show (a title-bar command, a task sent before the
   * setup). It is a request, not the panel's current view: a webview follows it only when
   * `viewRequest` changes, so a later snapshot never takes back a view the user chose.
   */
  view: z.enum(PANEL_VIEWS),
  /** Names the host's latest request to show `view`; absent until the host has made one. */
  viewRequest: z.optional(z.string().check(z.maxLength(100))),
  task: z.optional(taskViewSchema),
  /** The tasks the panel runs or holds, oldest first (the shown one among them once it has run); kept current by `liveTasks`. */
  tasks: z.optional(z.array(liveTaskSchema)),
  settings: providerSettingsViewSchema,
  history: z.array(historyItemSchema),
  /** The stored tasks are still being read (after start-up); `history` is empty until a later snapshot brings them. */
  historyLoading: z.optional(z.literal(true)),
  /** `description`: when to use the mode (its whenToUse, description or first sentence), shown with it in the picker. */
  modes: z.array(z.object({ slug: z.string(), name: z.string(), description: z.optional(z.string()) })),
  /** Mode to start new tasks in. */
  mode: modeSchema,
  modeSlug: z.string(),
  /** MCP servers; kept current between snapshots by `mcpState`. */
  mcp: mcpPanelStateSchema,
  /** A task sent before the provider was set up; it waits, whatever view is showing, and starts once the setup is complete. */
  pendingTask: z.optional(z.string()),
  autoApprove: autoApproveViewSchema,
  /** The models last listed for the Settings view (`listModels`). */
  models: z.optional(modelListSchema),
  /**
   * The local branches a new worktree can start from, last listed (`listBaseBranches`), and the one
   * the workspace has checked out (the default base); `problem` when there is no repository to list.
   */
  baseBranches: z.optional(z.object({ branches: z.array(z.string()), current: z.optional(z.string()), problem: z.optional(z.string()) })),
  /** Completions for the @-mention being typed (`suggestMentions`), with the text they are for. */
  mentionSuggestions: z.optional(z.object({ query: z.string(), items: z.array(mentionSuggestionSchema) })),
  /** The rules files found for the open task (or the workspace), listed in the Settings view with a toggle each. */
  rules: z.optional(z.array(z.object({ label: z.string(), active: z.boolean(), note: z.optional(z.string()), disabled: z.boolean() }))),
  /** The Agent Skills found for the workspace, listed in the Settings view with where each comes from and a toggle each. */
  agentSkills: z.optional(
    z.object({
      skills: z.array(
        z.object({
          name: z.string(),
          description: z.optional(z.string()),
          location: z.string(),
          scope: z.enum(['workspace', 'user', 'extra']),
          offered: z.boolean(),
          disabled: z.boolean(),
          note: z.optional(z.string()),
        }),
      ),
      /** What could not be read (a link out of the workspace, a huge or binary SKILL.md), one line each. */
      notes: z.array(z.string()),
    }),
  ),
  /** Completions for the `/command` being typed (`suggestCommands`): the user's command files and MCP prompts. */
  commandSuggestions: z.optional(z.object({ query: z.string(), items: z.array(mentionSuggestionSchema) })),
  /** A sub-agent's chat the user opened (`openSubagentChat`) from the open task's use_subagents card: its own messages, read-only. */
  subagentChat: z.optional(
    z.object({
      parentId: z.string(),
      taskId: z.string(),
      status: z.enum(['running', 'completed', 'failed', 'aborted']),
      messages: z.array(uiMessageSchema),
    }),
  ),
});
export type PanelState = DeepReadonly<z.infer<typeof panelStateSchema>>;
