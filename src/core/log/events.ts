import type { AssistantBlock } from '../parse/types.js';
import type { Base64Image, ReasoningItemPart, RedactedThinkingPart, ThinkingPart, TokenUsage } from '../providers/types.js';
import type { PlanAct } from '../../shared/plan-act.js';
import type { FileStamp } from './file-stamp.js';
import type { Attachment } from './attachment.js';
import type { TodoItem } from '../../shared/todo-items.js';
import type { ShownApproval, ToolFacts } from '../../shared/tool-details.js';
import type { HookRun } from '../../shared/hook-runs.js';
import type { TaskWorktree } from '../worktrees/worktree-types.js';

/** Every fact of a task, appended to its log and never changed. */
export type TaskEvent =
  | TaskStarted
  | UserMessage
  | RequestStarted
  | ModelResponse
  | ToolRequested
  | ApprovalAsked
  | ApprovalAnswered
  | ToolResult
  | ToolError
  | CommandStarted
  | SubagentStarted
  | NoToolUsed
  | TaskResumed
  | TaskError
  | TaskCompleted
  | TaskAborted
  | ModeSwitched
  | ModeSlugSwitched
  | SkillLoaded
  | HistoryCondensed
  | CondenseFailed
  | HistoryTruncated
  | ResponseInterrupted
  | RequestRetried
  | NewTaskRequested
  | CheckpointCreated
  | ConversationRewound
  | TodoListEdited
  | ContextMeasured
  | HooksRan
  | ToolAutoApproved
  | ToolResultsShortened
  | LoopDetected;

interface EventBase {
  /** Position in the log, starting at 0. */
  readonly seq: number;
  /** Milliseconds since the epoch. */
  readonly ts: number;
}

interface TaskStarted extends EventBase {
  readonly type: 'task_started';
  readonly taskId: string;
  readonly task: string;
  readonly cwd: string;
  readonly provider: string;
  readonly model: string;
  /** Plan or Act. */
  readonly mode: PlanAct;
  /** The mode (persona: role, tools, files) it starts in, by slug. */
  readonly modeSlug: string;
  /** What the task text's @-mentions attached, as sent (as for user_message). */
  readonly context?: string;
  readonly attachments?: readonly Attachment[];
  /** Images the user sent with it (base64 in the log, each at most MAX_IMAGE_BYTES); only vision models get them. */
  readonly images?: readonly Base64Image[];
  /** The git worktree the task runs in (`cwd` is in it), so the history and a resume find it. */
  readonly worktree?: TaskWorktree;
}

/** A later message from the user (an answer to a follow-up, or a new instruction). */
export interface UserMessage extends EventBase {
  readonly type: 'user_message';
  readonly text: string;
  /**
   * What the message's @-mentions attached, exactly as the model got it, so a resume or a rewind
   * sends the same context even when the files changed since.
   */
  readonly context?: string;
  readonly attachments?: readonly Attachment[];
  /** Images the user sent with it (base64 in the log, each at most MAX_IMAGE_BYTES); only vision models get them. */
  readonly images?: readonly Base64Image[];
}

/** A model request began; the environment details sent with it are kept so projections replay exactly. */
interface RequestStarted extends EventBase {
  readonly type: 'request_started';
  readonly environmentDetails: string;
}

/** A model reply as the engine acted on it. The log stores it once: the blocks (see `text`). */
export interface ModelResponse extends EventBase {
  readonly type: 'model_response';
  /** The reply as the model is shown it again: `serializeBlocks(blocks)`, derived when the log is read, not stored. */
  readonly text: string;
  readonly reasoning: string;
  /** The reply parsed: text, thinking and tool calls (with a native call's id and signature). */
  readonly blocks: readonly AssistantBlock[];
  readonly usage: TokenUsage;
  /** US dollars, when the model's prices are known. */
  readonly cost?: number;
  /**
   * Native tool calling: the reasoning the vendor wants back unchanged with the calls (Anthropic's
   * signed and redacted thinking, OpenAI's encrypted reasoning items), in the order it came.
   */
  readonly signedReasoning?: readonly SignedReasoning[];
}

/**
 * One piece of reasoning to send back, as the provider gave it (SignedReasoningPart without the
 * `type` of an Anthropic thinking block, which logs of every version store without one), and
 * `afterCalls`: how many of the response's tool calls came before it (absent: none).
 */
export type SignedReasoning = ((Omit<ThinkingPart, 'type'> & { readonly type?: 'thinking' }) | RedactedThinkingPart | ReasoningItemPart) & {
  readonly afterCalls?: number;
};

/** A response broke off mid-stream; its text is shown as interrupted and nothing in it was executed. */
interface ResponseInterrupted extends EventBase {
  readonly type: 'response_interrupted';
  readonly partialText: string;
  readonly error: string;
  /**
   * The user stopped it (Cancel, or a message sent to steer): the model is told its answer was cut
   * off there. Otherwise a retry replaced it and the model never sees it.
   */
  readonly byUser?: boolean;
}

/** A model request failed (or its response broke off) and will be made again after `delayMs`. */
export interface RequestRetried extends EventBase {
  readonly type: 'request_retried';
  /** 1 for the first retry of this request. */
  readonly attempt: number;
  readonly maxRetries: number;
  readonly delayMs: number;
  /** Why the attempt failed, worded for the user (e.g. the idle timeout, HTTP 503). */
  readonly reason: string;
}

export interface ToolRequested extends EventBase {
  readonly type: 'tool_requested';
  readonly callId: string;
  readonly tool: string;
  readonly params: Readonly<Record<string, string>>;
  /** The vendor's id of a native tool call, which its result must name. */
  readonly toolUseId?: string;
}

/**
 * The user was asked to approve a call. `request` is the question exactly as shown (summary, diff
 * or command, reason); the panel and the CLI render it from here. Absent in logs written before it
 * was recorded.
 */
interface ApprovalAsked extends EventBase {
  readonly type: 'approval_asked';
  readonly callId: string;
  readonly request?: ShownApproval;
}

/**
 * The user's decision. Its feedback reaches the model from here (api-projection appends it to the
 * call's result or error, or makes it the denial), never from the tools.
 */
interface ApprovalAnswered extends EventBase {
  readonly type: 'approval_answered';
  readonly callId: string;
  readonly approved: boolean;
  readonly feedback?: string;
}

interface ToolResult extends EventBase {
  readonly type: 'tool_result';
  readonly callId: string;
  readonly tool: string;
  /** Always describes the images too, so a text-only projection loses nothing essential. */
  readonly output: string;
  /** Images for a vision model, base64 in the log, at most TOOL_RESULT_IMAGE_BYTES per result. */
  readonly images?: readonly Base64Image[];
  /** Typed facts beside the text for the model. */
  readonly details?: ToolResultDetails;
}

/**
 * Facts of a tool result that code reads (the text is for the model): the typed parts of
 * ToolFacts (src/shared/tool-details.ts: command, edit, read, list, search, outline, mcp,
 * question), which the UIs render, and the file stamp the stale-file check reads. Compact by
 * design, as logs keep them forever: counts, hashes and paths, never file contents; command
 * output only as capped for the model.
 */
export interface ToolResultDetails extends ToolFacts {
  /** The file as the tool read it or left it (read_file, write_to_file, replace_in_file, new_rule). */
  readonly file?: FileStamp;
}

interface ToolError extends EventBase {
  readonly type: 'tool_error';
  readonly callId: string;
  readonly tool: string;
  readonly error: string;
  /** True when the model's call was at fault (counts toward the consecutive-mistake limit). */
  readonly mistake: boolean;
  /** Facts of a call that ran and failed (an MCP tool's error result). */
  readonly details?: ToolResultDetails;
}

/** The model answered without using a tool; the next request reminds it. */
interface NoToolUsed extends EventBase {
  readonly type: 'no_tool_used';
}

/** The task was picked up again from its log after an interruption. */
interface TaskResumed extends EventBase {
  readonly type: 'task_resumed';
}

interface TaskError extends EventBase {
  readonly type: 'error';
  readonly message: string;
}

interface TaskCompleted extends EventBase {
  readonly type: 'task_completed';
  readonly result: string;
  readonly command?: string;
}

interface TaskAborted extends EventBase {
  readonly type: 'task_aborted';
  readonly reason: string;
}

/** The user (or host) switched between Plan and Act. */
interface ModeSwitched extends EventBase {
  readonly type: 'mode_switched';
  readonly mode: PlanAct;
}

/** The user switched the task to another mode (persona), by slug. */
interface ModeSlugSwitched extends EventBase {
  readonly type: 'mode_slug_switched';
  readonly modeSlug: string;
}

/**
 * The model loaded an Agent Skill (use_skill): which one, from where, and the tools its
 * allowed-tools permit, as Smith rules. The skill is active from here until another one is loaded,
 * the user writes again or the task completes; its limits are read from this event, never from
 * the SKILL.md again, so a resumed task keeps the limits it had.
 */
export interface SkillLoaded extends EventBase {
  readonly type: 'skill_loaded';
  readonly callId: string;
  readonly name: string;
  /** The skills folder it came from, as lists name it (`.claude/skills`). */
  readonly location: string;
  /** The skill's folder. */
  readonly dir: string;
  /** SHA-256 of the SKILL.md text the model was given. */
  readonly sha256: string;
  /** allowed-tools as written; absent: the skill limits no tool. */
  readonly allowedTools?: readonly string[];
  /** Those entries as the Smith rules enforced (entries Smith cannot apply are left out and allow nothing). */
  readonly rules?: readonly string[];
}

/** Older history is replaced by this summary in the context window; the log keeps everything. */
interface HistoryCondensed extends EventBase {
  readonly type: 'history_condensed';
  readonly summary: string;
  /** The summary request's tokens (absent when the model wrote the summary itself with the condense tool). */
  readonly usage?: TokenUsage;
  /** US dollars for the summary request, when the model's prices are known. */
  readonly cost?: number;
  /** The model that wrote it (`provider/model`), when Smith asked for the summary. */
  readonly model?: string;
}

/** A summary request failed; the tokens it used still count. */
interface CondenseFailed extends EventBase {
  readonly type: 'condense_failed';
  readonly error: string;
  readonly usage?: TokenUsage;
  readonly cost?: number;
}

/** Events [fromSeq, toSeq) no longer go to the model, to fit its context window. */
interface HistoryTruncated extends EventBase {
  readonly type: 'history_truncated';
  readonly fromSeq: number;
  readonly toSeq: number;
  readonly reason: string;
}

/**
 * A tool call started a shell command. `marker` is the value in the SMITH_COMMAND_ID variable of
 * every process it starts, so a resumed task can find and stop what a crash left running.
 */
/** A use_subagents call started a sub-agent: a child task with its own log (see subagent-runner.ts). */
interface SubagentStarted extends EventBase {
  readonly type: 'subagent_started';
  readonly callId: string;
  /** Its place among the call's questions (0-based). */
  readonly index: number;
  readonly taskId: string;
  readonly prompt: string;
  /** The custom agent or mode it runs as (absent: a research sub-agent). */
  readonly name?: string;
  /** The paths it declared and alone may edit. */
  readonly paths?: readonly string[];
}

interface CommandStarted extends EventBase {
  readonly type: 'command_started';
  readonly callId: string;
  readonly command: string;
  readonly pid?: number;
  readonly marker?: string;
}

/** The model asked to continue in a fresh task carrying this context. */
interface NewTaskRequested extends EventBase {
  readonly type: 'new_task_requested';
  readonly context: string;
}

/** Another folder of a multi-root workspace in a checkpoint: its snapshot, in that folder's own store. */
export interface CheckpointFolder {
  readonly path: string;
  /** The name its files are shown with (`<name>/src/a.ts`). */
  readonly name: string;
  readonly root: string;
}

/**
 * The workspace as it was after the step ending at `afterSeq` (or, for checkpoint "0", when the
 * task started or resumed), stored in the workspace's checkpoint store under `root`.
 */
export interface CheckpointCreated extends EventBase {
  readonly type: 'checkpoint_created';
  /** "0", "1", … in the order taken; what the user names to compare or restore. */
  readonly checkpointId: string;
  readonly root: string;
  readonly afterSeq: number;
  /** Paths added, changed or removed since the previous checkpoint (at most CHECKPOINT_PATHS_SHOWN). */
  readonly changed: readonly string[];
  /** How many paths changed in all, when more than are listed. */
  readonly changedCount: number;
  /** Changed files the checkpoint does not hold (too large, unreadable), with why. */
  readonly skipped: readonly { readonly path: string; readonly reason: string }[];
  /** In a multi-root workspace, each other folder's snapshot, in that folder's own store. */
  readonly folders?: readonly CheckpointFolder[];
}

/**
 * The user went back to an earlier point: events from `toSeq` up to this one no longer reach the
 * model or the chat (they stay in the log). `files`: the workspace was restored to `checkpointId`.
 */
interface ConversationRewound extends EventBase {
  readonly type: 'conversation_rewound';
  /** The first event that is undone; undefined when only the files were restored. */
  readonly toSeq?: number;
  readonly checkpointId: string;
  readonly files: boolean;
  /** The workspace just before a file restore, so the restore itself can be undone. */
  readonly beforeRoot?: string;
  /** The other folders of a multi-root workspace just before that restore. */
  readonly beforeFolders?: readonly CheckpointFolder[];
  /** The task's first message as the user edited it (the rewind then keeps only `task_started`). */
  readonly task?: string;
}

/** A call ran without asking because the auto-approve policy covered it (counted toward the policy's cap). */
interface ToolAutoApproved extends EventBase {
  readonly type: 'tool_auto_approved';
  readonly callId: string;
  /** The user's allow rule that let it through; without one, the auto-approve policy did (and it counts toward the cap). */
  readonly rule?: string;
}

/**
 * What the request about to be made holds, estimated (o200k tokens) just before it is sent: the
 * context bar shows it against the model's window. `results` is the part of `conversation` that
 * is tool results.
 */
export interface ContextMeasured extends EventBase {
  readonly type: 'context_measured';
  readonly tokens: number;
  /** The model's context window, when known. */
  readonly window?: number;
  readonly system: number;
  /** Native tool definitions (with the XML protocol the tools are described in the system prompt). */
  readonly tools: number;
  readonly conversation: number;
  readonly results: number;
  /** The share of the window at which the history is condensed. */
  readonly condenseAt?: number;
}

/**
 * The user's hooks of one event ran (their decisions, changes and failures); `context` is what
 * they gave the model with the next request (SessionStart; other events' context travels with
 * the message or the tool result it belongs to).
 */
interface HooksRan extends EventBase {
  readonly type: 'hooks_ran';
  readonly event: string;
  readonly tool?: string;
  readonly callId?: string;
  readonly runs: readonly HookRun[];
  /** The tool's input as the hooks changed it (PreToolUse `updatedInput`): what the tool ran with. */
  readonly input?: Readonly<Record<string, string>>;
  readonly context?: string;
}

/**
 * The model made the same call (or failed the same way) `count` times in a row: it was told
 * (`told`, the next request says so), or, repeating it after that, the user let it go on
 * (`allowed`) or it was stopped (`stopped`, followed by the task's error).
 */
interface LoopDetected extends EventBase {
  readonly type: 'loop_detected';
  readonly tool: string;
  readonly count: number;
  readonly action: 'told' | 'allowed' | 'stopped';
  /** The calls failed the same way rather than repeating the same parameters. */
  readonly sameFailure: boolean;
}

/**
 * Large tool results up to `throughSeq` reach the model shortened to about `maxTokens` each (their
 * beginning and end), to keep a long task's context small before condensing the whole history.
 */
interface ToolResultsShortened extends EventBase {
  readonly type: 'tool_results_shortened';
  readonly throughSeq: number;
  readonly maxTokens: number;
  /** How many results it shortened, and about how many tokens that saves per request. */
  readonly results: number;
  readonly savedTokens: number;
}

/** The user edited the model's todo list (in the panel); the model sees the edited list next. */
interface TodoListEdited extends EventBase {
  readonly type: 'todo_list_edited';
  readonly items: readonly TodoItem[];
}

/** An event before the log assigns its position and time. */
export type NewEvent = TaskEvent extends infer E ? (E extends TaskEvent ? Omit<E, 'seq' | 'ts'> : never) : never;
