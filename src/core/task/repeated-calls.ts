// A model stuck in a loop makes the same call again and again (reads the same file, runs the same
// failing test, sends the same edit that does not apply) until the request limit; each round costs
// a whole request. The loop is found in the log: the model is told once, and if it goes on, the
// user decides (nobody to ask: the task stops).
import type { TaskEvent } from '../log/events.js';
import type { TaskLog } from '../log/task-log.js';
import { NOT_EXECUTED } from './tool-call-runner.js';

/** How many identical calls in a row make a loop when the settings say nothing. */
export const DEFAULT_MAX_REPEATED_CALLS = 3;

/** One call as far as repeating goes: what it asked for, and how it failed if it did. */
interface CallSignature {
  readonly tool: string;
  readonly params: string;
  /** The error it ended with (a failing edit fails the same way however its other parameters vary). */
  readonly failure?: string;
  readonly path?: string;
}

/** The run of identical calls at the end of the log, and whether the model was already told about it. */
interface RepeatRun {
  readonly tool: string;
  readonly count: number;
  /** The same failure each time rather than the same parameters. */
  readonly sameFailure: boolean;
  readonly told: boolean;
}

/**
 * The calls at the end of the log that repeat one another: the same tool with the same parameters,
 * or the same tool failing the same way on the same path. Counting starts again where the user spoke
 * (a message, a rejection), where the user let the loop go on, and at every other call. Calls left
 * unexecuted because an earlier one stopped the batch are not calls the model's loop made. A task
 * that a new_task hand-over started does not start counting again: given the chain's logs one after
 * another, a run goes on across the hand-over (the model chose it; nobody spoke).
 */
export function repeatRun(events: readonly TaskEvent[]): RepeatRun | undefined {
  const requested = new Map<string, { tool: string; params: Readonly<Record<string, string>> }>();
  let last: CallSignature | undefined;
  let run: { tool: string; count: number; sameFailure: boolean; told: boolean } | undefined;
  const reset = () => {
    last = undefined;
    run = undefined;
  };
  const ended = (callId: string, failure?: string) => {
    const call = requested.get(callId);
    if (!call) return;
    const signature: CallSignature = {
      tool: call.tool,
      params: canonical(call.params),
      ...(failure !== undefined ? { failure } : {}),
      ...(call.params.path !== undefined ? { path: call.params.path } : {}),
    };
    const sameParams = last !== undefined && last.tool === signature.tool && last.params === signature.params;
    const sameFailure =
      last !== undefined && last.tool === signature.tool && last.failure !== undefined && last.failure === signature.failure && last.path === signature.path;
    run =
      run && (sameParams || sameFailure)
        ? { ...run, count: run.count + 1, sameFailure: run.sameFailure || !sameParams }
        : { tool: call.tool, count: 1, sameFailure: false, told: false };
    last = signature;
  };
  let previous: TaskEvent | undefined;
  for (const event of events) {
    const handedOver = previous?.type === 'new_task_requested';
    previous = event;
    switch (event.type) {
      case 'tool_requested':
        requested.set(event.callId, { tool: event.tool, params: event.params });
        break;
      case 'tool_result':
        ended(event.callId);
        break;
      case 'tool_error':
        if (!event.error.startsWith(NOT_EXECUTED)) ended(event.callId, firstLine(event.error));
        break;
      case 'approval_answered':
        if (!event.approved) reset();
        break;
      case 'loop_detected':
        if (event.action === 'told' && run) run = { ...run, told: true };
        else reset();
        break;
      case 'task_started':
        if (!handedOver) reset();
        break;
      case 'user_message':
      case 'history_condensed':
      case 'conversation_rewound':
        reset();
        break;
      default:
        break;
    }
  }
  return run;
}

/**
 * Before the next request: tells the model when its last `limit` calls were the same (logged, so it
 * is told once), and asks the user when it repeats the call even after that, also when a new_task
 * hand-over came between the calls. Returns why the task
 * stops when the user says stop or nobody can answer; undefined to go on. `limit` 0 turns it off.
 */
export async function checkRepeatedCalls(
  log: TaskLog,
  limit: number,
  mayGoOn: (question: string) => Promise<boolean>,
  /** The logs of the tasks before this one in its new_task chain, oldest first. */
  handedOverFrom: readonly TaskEvent[] = [],
): Promise<string | undefined> {
  if (limit <= 0) return undefined;
  const run = repeatRun(handedOverFrom.length > 0 ? [...handedOverFrom, ...log.events] : log.events);
  if (!run || run.count < limit) return undefined;
  const what = run.sameFailure ? `${run.tool} failing the same way` : `the same ${run.tool} call`;
  if (!run.told) {
    log.append({ type: 'loop_detected', tool: run.tool, count: run.count, action: 'told', sameFailure: run.sameFailure });
    return undefined;
  }
  if (run.count <= limit) return undefined;
  const question = `The model made ${what} ${run.count} times in a row, after it was told it was repeating itself. Let it go on?`;
  if (await mayGoOn(question)) {
    log.append({ type: 'loop_detected', tool: run.tool, count: run.count, action: 'allowed', sameFailure: run.sameFailure });
    return undefined;
  }
  log.append({ type: 'loop_detected', tool: run.tool, count: run.count, action: 'stopped', sameFailure: run.sameFailure });
  return `Stopped: the model made ${what} ${run.count} times in a row and did not change course when told. Give it more guidance, or raise the limit (--max-repeats, smith.maxRepeatedCalls).`;
}

/** What the model is told when it repeats itself (the API projection sends it with the next request). */
export function repeatedCallNote(tool: string, count: number, sameFailure: boolean): string {
  const what = sameFailure
    ? `Your last ${count} ${tool} calls failed the same way`
    : `You have made the same ${tool} call with the same parameters ${count} times in a row`;
  return (
    `[${what}. Repeating it will not give a different result. Stop and change course: re-read the file or the error, ` +
    'try a different approach, or ask the user with ask_followup_question. If you repeat it again, the user will be asked whether to stop you.]'
  );
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]?.slice(0, 500) ?? '';
}

/** The parameters in one order, so the same call written twice compares equal. */
function canonical(params: Readonly<Record<string, string>>): string {
  return JSON.stringify(
    Object.keys(params)
      .sort()
      .map((key) => [key, params[key]]),
  );
}
