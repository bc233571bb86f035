// The events of the model's tool calls: the request, its approval, what ran (commands, sub-agents, hooks) and the result.
import type { PreviewSummary } from '../../shared/command-preview-facts.js';
import type { Base64Image } from '../providers/types.js';
import type { FileStamp } from './file-stamp.js';
import type { ShownApproval, ToolFacts } from '../../shared/tool-details.js';
import type { HookRun } from '../../shared/hook-runs.js';
import type { EventBase } from './event-base.js';

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
export interface ApprovalAsked extends EventBase {
  readonly type: 'approval_asked';
  readonly callId: string;
  readonly request?: ShownApproval;
}

/**
 * The user's decision. Its feedback reaches the model from here (api-projection appends it to the
 * call's result or error, or makes it the denial), never from the tools.
 */
export interface ApprovalAnswered extends EventBase {
  readonly type: 'approval_answered';
  readonly callId: string;
  readonly approved: boolean;
  readonly feedback?: string;
  /** The user chose to write a command preview's file changes instead of running the command. */
  readonly applyPreview?: true;
}

/** A call ran without asking because the auto-approve policy covered it (counted toward the policy's cap). */
export interface ToolAutoApproved extends EventBase {
  readonly type: 'tool_auto_approved';
  readonly callId: string;
  /** The user's allow rule that let it through; without one, the auto-approve policy did (and it counts toward the cap). */
  readonly rule?: string;
}

export interface ToolResult extends EventBase {
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

export interface ToolError extends EventBase {
  readonly type: 'tool_error';
  readonly callId: string;
  readonly tool: string;
  readonly error: string;
  /** True when the model's call was at fault (counts toward the consecutive-mistake limit). */
  readonly mistake: boolean;
  /** Facts of a call that ran and failed (an MCP tool's error result). */
  readonly details?: ToolResultDetails;
}

/**
 * A tool call starts a shell command, logged before any of its processes exists. `marker` is the
 * value in the SMITH_COMMAND_ID variable of every process it starts, so a resumed task can find and
 * stop what a crash left running. `pid` (the shell's) was logged by older builds, which logged the
 * event once the shell had started.
 */
export interface CommandStarted extends EventBase {
  readonly type: 'command_started';
  readonly callId: string;
  readonly command: string;
  readonly pid?: number;
  readonly marker?: string;
}

/**
 * The user previewed a command before answering its approval (docs/command-preview.md): the
 * command ran on a copy of the workspace; this is what it would change there (paths and counts,
 * no contents). The model is not told of it; a preview the user applies shows in the call's result.
 */
export interface CommandPreviewed extends EventBase {
  readonly type: 'command_previewed';
  readonly callId: string;
  readonly summary: PreviewSummary;
}

/** A use_subagents call started a sub-agent: a child task with its own log (see subagent-runner.ts). */
export interface SubagentStarted extends EventBase {
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

/**
 * The user's hooks of one event ran (their decisions, changes and failures); `context` is what
 * they gave the model with the next request (SessionStart; other events' context travels with
 * the message or the tool result it belongs to).
 */
export interface HooksRan extends EventBase {
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
export interface LoopDetected extends EventBase {
  readonly type: 'loop_detected';
  readonly tool: string;
  readonly count: number;
  readonly action: 'told' | 'allowed' | 'stopped';
  /** The calls failed the same way rather than repeating the same parameters. */
  readonly sameFailure: boolean;
}
