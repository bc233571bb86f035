// The events of a task's conversation and its run: the task and the user's messages, the model's requests and answers, modes and skills, and how the run ended.
import type { AssistantBlock } from '../parse/types.js';
import type { Base64Image, ReasoningItemPart, RedactedThinkingPart, ThinkingPart, TokenUsage } from '../providers/types.js';
import type { PlanAct } from '../../shared/plan-act.js';
import type { Attachment } from './attachment.js';
import type { TodoItem } from '../../shared/todo-items.js';
import type { TaskWorktree } from '../worktrees/worktree-types.js';
import type { EventBase } from './event-base.js';

export interface TaskStarted extends EventBase {
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
  /** The task was imported from another agent's session (`smith import`): from where, and what did not come along. */
  readonly imported?: ImportedFrom;
}

/** The agents whose sessions `smith import` reads. */
export type ImportSource = 'claude-code' | 'cline' | 'roo-code';

/** Each of those agents' name as its users know it. */
export const IMPORT_SOURCE_NAMES: Readonly<Record<ImportSource, string>> = { 'claude-code': 'Claude Code', cline: 'Cline', 'roo-code': 'Roo Code' };

/** Where an imported task came from and what could not be carried over (shown when the task is opened). */
export interface ImportedFrom {
  readonly source: ImportSource;
  /** The session file or task folder read. */
  readonly path: string;
  /** The other agent's id of the session or task. */
  readonly sessionId: string;
  /** One line per thing left behind, worded for the user. */
  readonly notCarried: readonly string[];
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
export interface RequestStarted extends EventBase {
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
export interface ResponseInterrupted extends EventBase {
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

/** The model answered without using a tool; the next request reminds it. */
export interface NoToolUsed extends EventBase {
  readonly type: 'no_tool_used';
}

/** The task was picked up again from its log after an interruption. */
export interface TaskResumed extends EventBase {
  readonly type: 'task_resumed';
}

export interface TaskError extends EventBase {
  readonly type: 'error';
  readonly message: string;
}

export interface TaskCompleted extends EventBase {
  readonly type: 'task_completed';
  readonly result: string;
  readonly command?: string;
}

export interface TaskAborted extends EventBase {
  readonly type: 'task_aborted';
  readonly reason: string;
}

/** The model asked to continue in a fresh task carrying this context. */
export interface NewTaskRequested extends EventBase {
  readonly type: 'new_task_requested';
  readonly context: string;
}

/** The user (or host) switched between Plan and Act. */
export interface ModeSwitched extends EventBase {
  readonly type: 'mode_switched';
  readonly mode: PlanAct;
}

/** The user switched the task to another mode (persona), by slug. */
export interface ModeSlugSwitched extends EventBase {
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
  /**
   * Not loaded here but carried over from the task with this id, where it was in force when that
   * task handed over (new_task) or started this one as a sub-agent; `callId` is that task's call.
   */
  readonly inheritedFrom?: string;
}

/** The user edited the model's todo list (in the panel); the model sees the edited list next. */
export interface TodoListEdited extends EventBase {
  readonly type: 'todo_list_edited';
  readonly items: readonly TodoItem[];
}
