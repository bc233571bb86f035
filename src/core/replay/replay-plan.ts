// What a replay takes from the original task's log: where it started, what the user said, and
// what the user decided. Pure: reads events, touches nothing.
import type { PlanAct } from '../../shared/plan-act.js';
import type { CheckpointFolder } from '../log/checkpoint-events.js';
import type { TaskEvent } from '../log/events.js';
import type { MentionedContext } from '../task/mentioned-context.js';
import { visibleEvents } from '../log/visible-events.js';

/** A replay that cannot start, worded for the user. */
export class ReplayError extends Error {}

/** One message of the user, with what its @-mentions attached when it was sent. */
interface ReplayMessage {
  readonly text: string;
  /** Plan or Act, as it was when the user sent it. */
  readonly mode: PlanAct;
  readonly mentioned?: MentionedContext;
}

/** How the original run answered one call: approved (asked or not) or rejected, with the user's feedback. */
export interface CallDecision {
  readonly approved: boolean;
  readonly feedback?: string;
}

/** Everything a replay needs from the original log. */
export interface ReplayPlan {
  readonly taskId: string;
  readonly cwd: string;
  readonly provider: string;
  readonly model: string;
  readonly mode: PlanAct;
  readonly modeSlug: string;
  /** The snapshot of checkpoint "0": the workspace as the task found it. */
  readonly startRoot: string;
  /** In a multi-root workspace, checkpoint "0"'s snapshot of each other folder. */
  readonly startFolders: readonly CheckpointFolder[];
  /** The task's first message, then each later message, in order. */
  readonly messages: readonly [ReplayMessage, ...ReplayMessage[]];
  /** The user's answers to the model's questions, in the order they were given. */
  readonly answers: readonly string[];
  /** What the user decided about each call, by callKey, in the order decided. */
  readonly decisions: ReadonlyMap<string, readonly CallDecision[]>;
  /** Calls the auto-approve policy let through without asking (not a permission rule or a hook): they show what it covered. */
  readonly policyApproved: readonly PlannedCall[];
}

/** A call as the model made it. */
interface PlannedCall {
  readonly tool: string;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Reads a task's log into a replay plan: the conversation as the user left it (rewound parts
 * left out), starting from its first checkpoint. Throws ReplayError when the log has no
 * checkpoint, since the workspace the task began in cannot then be rebuilt.
 */
export function replayPlan(events: readonly TaskEvent[]): ReplayPlan {
  const shown = visibleEvents(events);
  const started = shown.find((e) => e.type === 'task_started');
  if (started?.type !== 'task_started') throw new ReplayError('the task log has no task_started event');
  const first = shown.find((e) => e.type === 'checkpoint_created');
  if (first?.type !== 'checkpoint_created') {
    throw new ReplayError(`task ${started.taskId} has no checkpoints (they were off when it ran), so the workspace it began in cannot be rebuilt for a replay`);
  }
  let mode = started.mode;
  const messages: [ReplayMessage, ...ReplayMessage[]] = [{ text: started.task, mode, ...mentionedOf(started) }];
  const answers: string[] = [];
  const params = new Map<string, PlannedCall>();
  const policyApproved: PlannedCall[] = [];
  const decisions = new Map<string, CallDecision[]>();
  const decide = (callId: string, decision: CallDecision) => {
    const call = params.get(callId);
    if (!call) return;
    const key = callKey(call.tool, call.params);
    decisions.set(key, [...(decisions.get(key) ?? []), decision]);
  };
  // Decisions come from the whole log: a rewound step was still the user's word on that call.
  for (const event of events) {
    if (event.type === 'tool_requested') params.set(event.callId, { tool: event.tool, params: event.params });
    else if (event.type === 'tool_auto_approved') {
      decide(event.callId, { approved: true });
      const call = params.get(event.callId);
      if (event.rule === undefined && call) policyApproved.push(call);
    } else if (event.type === 'approval_answered') decide(event.callId, { approved: event.approved, ...(event.feedback ? { feedback: event.feedback } : {}) });
  }
  for (const event of shown) {
    if (event.type === 'mode_switched') mode = event.mode;
    else if (event.type === 'user_message') messages.push({ text: event.text, mode, ...mentionedOf(event) });
    else if (event.type === 'tool_result' && event.details?.question?.answered) {
      const answer = /^<(answer|user_message)>\n([\s\S]*)\n<\/\1>$/.exec(event.output);
      if (answer) answers.push(answer[2]!);
    }
  }
  return {
    taskId: started.taskId,
    cwd: started.cwd,
    provider: started.provider,
    model: started.model,
    mode: started.mode,
    modeSlug: started.modeSlug,
    startRoot: first.root,
    startFolders: first.folders ?? [],
    messages,
    answers,
    decisions,
    policyApproved,
  };
}

/**
 * What identifies a call for matching a replay's calls to the original's: the tool and what it
 * acts on (the path, the command, the MCP tool), not its content, since another model writes the
 * same file differently.
 */
export function callKey(tool: string, params: Readonly<Record<string, string>>): string {
  const target =
    params.path ?? params.command ?? (params.server_name !== undefined ? `${params.server_name}/${params.tool_name ?? params.uri ?? ''}` : undefined);
  return `${tool} ${target?.trim() ?? JSON.stringify(params)}`;
}

function mentionedOf(event: {
  readonly context?: string;
  readonly attachments?: MentionedContext['attachments'];
  readonly images?: MentionedContext['images'];
}): { mentioned?: MentionedContext } {
  if (event.context === undefined && !event.attachments?.length && !event.images?.length) return {};
  return {
    mentioned: {
      ...(event.context !== undefined ? { context: event.context } : {}),
      ...(event.attachments ? { attachments: event.attachments } : {}),
      ...(event.images ? { images: event.images } : {}),
    },
  };
}
