import type { TaskEvent } from '../core/log/events.js';
import type { TaskOutcome } from '../core/task/task.js';
import { usageTotals } from '../core/task/ui-projection.js';

/** One step of the run, as printed by --output json. */
interface JsonStep {
  readonly type: 'assistant' | 'tool' | 'error';
  readonly tool?: string;
  readonly input?: Readonly<Record<string, string>>;
  readonly output?: string;
  readonly error?: string;
}

/** The single JSON object printed on stdout by --output json. */
export interface JsonSummary {
  readonly success: boolean;
  readonly result: string | null;
  /** Why the run stopped before a task could start (a configuration or usage error); absent otherwise. */
  readonly error?: string;
  /** The last task of the run (the one `--resume` continues); null when none started. */
  readonly taskId: string | null;
  /** Every task of the run, first to last: more than one when the model handed over with new_task. */
  readonly taskIds: string[];
  readonly steps: JsonStep[];
  readonly metadata: {
    readonly totalIterations: number;
    readonly toolsUsed: string[];
    readonly tokensUsed: { readonly input: number; readonly output: number; readonly cacheRead: number; readonly cacheWrite: number };
    /** US dollars; null when the model's prices are unknown. */
    readonly cost: number | null;
    readonly durationMs: number;
  };
}

/**
 * Builds the JSON summary from the run's events: one task's log, or the logs of a new_task chain
 * one after another, so steps, iterations, tokens and cost cover the whole run.
 */
export function jsonSummary(taskId: string, events: readonly TaskEvent[], outcome: TaskOutcome, durationMs: number): JsonSummary {
  const steps: JsonStep[] = [];
  const taskIds: string[] = [];
  // Call ids are per task: each task's log starts its own.
  let toolSteps = new Map<string, number>();
  const toolsUsed: string[] = [];
  let totalIterations = 0;
  const setTool = (callId: string, change: Partial<JsonStep>) => {
    const index = toolSteps.get(callId);
    if (index !== undefined) steps[index] = { ...steps[index]!, ...change };
  };
  for (const event of events) {
    switch (event.type) {
      case 'task_started':
        toolSteps = new Map();
        taskIds.push(event.taskId);
        break;
      case 'model_response': {
        totalIterations++;
        const text = event.blocks
          .filter((b) => b.kind === 'text')
          .map((b) => (b.kind === 'text' ? b.text : ''))
          .join('\n')
          .trim();
        if (text) steps.push({ type: 'assistant', output: text });
        break;
      }
      case 'tool_requested':
        toolSteps.set(event.callId, steps.length);
        steps.push({ type: 'tool', tool: event.tool, input: event.params });
        if (!toolsUsed.includes(event.tool)) toolsUsed.push(event.tool);
        break;
      case 'tool_result':
        setTool(event.callId, { output: event.output });
        break;
      case 'tool_error':
        if (toolSteps.has(event.callId)) setTool(event.callId, { error: event.error });
        else steps.push({ type: 'error', tool: event.tool, error: event.error });
        break;
      case 'approval_answered':
        if (!event.approved) setTool(event.callId, { error: `Rejected by the user${event.feedback ? `: ${event.feedback}` : ''}` });
        break;
      case 'task_completed':
        setTool([...toolSteps.keys()].at(-1) ?? '', { output: event.result });
        break;
      case 'error':
        steps.push({ type: 'error', error: event.message });
        break;
      default:
        break;
    }
  }
  const usage = usageTotals(events);
  return {
    success: outcome.status === 'completed',
    result: outcome.status === 'completed' ? outcome.result : null,
    taskId,
    taskIds: taskIds.length > 0 ? taskIds : [taskId],
    steps,
    metadata: {
      totalIterations,
      toolsUsed,
      tokensUsed: { input: usage.inputTokens, output: usage.outputTokens, cacheRead: usage.cacheReadTokens, cacheWrite: usage.cacheWriteTokens },
      cost: usage.cost ?? null,
      durationMs,
    },
  };
}

/** The summary of a run that failed before any task started (bad flags, no key, no model …). */
export function failedStartSummary(message: string): JsonSummary {
  return {
    success: false,
    result: null,
    error: message,
    taskId: null,
    taskIds: [],
    steps: [],
    metadata: { totalIterations: 0, toolsUsed: [], tokensUsed: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, cost: 0, durationMs: 0 },
  };
}

/**
 * The machine output a command line asked for (`--output json`, `--output=stream-json`; the last
 * one wins, as when parsed), read without the full parser so it is known even when parsing fails.
 */
export function machineOutputOf(argv: readonly string[]): 'json' | 'stream-json' | undefined {
  let output: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg === '--output') output = argv[++i];
    else if (arg.startsWith('--output=')) output = arg.slice('--output='.length);
  }
  return output === 'json' || output === 'stream-json' ? output : undefined;
}
