import { join } from 'node:path';
import type { SubagentFacts } from '../../shared/tool-details.js';
import { isTool, toolEntry } from '../../shared/tool-catalogue.js';
import { toolSubject } from '../../shared/tool-subject.js';
import { Task, type TaskOptions, type TaskOutcome } from '../task/task.js';
import { readTaskEvents, taskDir } from '../log/task-log.js';
import { currentModeAndSkill } from '../task/turn-setup.js';
import type { Mode } from '../../shared/mode.js';
import { usageTotals } from '../log/usage-totals.js';
import type { CostBudget } from '../log/cost-budget.js';
import { ToolRegistry } from '../tool-kit/tool-registry.js';

/** How sub-agents run (`smith.subagents.*`, `--max-subagents`). */
export interface SubagentSettings {
  /** Child tasks running at once; more prompts wait for a free place. */
  readonly maxParallel: number;
  /** Model requests each child may make before it must report. */
  readonly maxRequests: number;
}

export const DEFAULT_SUBAGENT_SETTINGS: SubagentSettings = { maxParallel: 3, maxRequests: 15 };

const CHILD_PROMPT = `# Sub-agent

You are a sub-agent: another agent gave you one research question and waits for your answer. You can read, list and search files, fetch web pages and use the MCP tools listed (each call is approved as usual); you cannot edit files or run commands. Investigate only what the question needs, then answer with attempt_completion: a concise report with the facts found (file paths, line numbers, names), no more than a few paragraphs. Your report is all the other agent will see.`;

/** Where a task's sub-agents keep their logs: inside the parent's folder, so they go with it and stay out of the history. */
export function subagentStorage(storageDir: string, parentTaskId: string): string {
  return join(taskDir(storageDir, parentTaskId), 'subagents');
}

/** One use_subagents call: its questions, the parent task, and where progress lines go. */
interface SubagentRun {
  readonly prompts: readonly string[];
  readonly parentTaskId: string;
  readonly signal: AbortSignal;
  progress(text: string): void;
  /** The parent's cost budget: every child spends from it, live, so together they stay within the parent's limit. */
  readonly costs?: CostBudget;
  /** Logs a child's start; the signal it returns stops that child alone. */
  started?(child: { readonly index: number; readonly taskId: string; readonly prompt: string }): AbortSignal;
}

/**
 * Runs each prompt as a child task (its own log and context window, read-only tools, a request
 * budget) with at most `maxParallel` at once, and returns each child's report and usage. A child
 * that fails or is stopped is reported as such; the others go on.
 */
export async function runSubagents(run: SubagentRun, parent: TaskOptions, settings: SubagentSettings): Promise<SubagentFacts[]> {
  // The parent's log on disk (flushed as written) says its mode, whose model the children use.
  const parentEvents = readTaskEvents(parent.storageDir, run.parentTaskId);
  const options = childOptions(parent, run.parentTaskId, settings, currentModeAndSkill(parentEvents).mode);
  const results: SubagentFacts[] = new Array(run.prompts.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < run.prompts.length; index = next++) results[index] = await runChild(index, run, options, run.costs);
  };
  await Promise.all(Array.from({ length: Math.min(settings.maxParallel, run.prompts.length) }, worker));
  return results;
}

async function runChild(index: number, run: SubagentRun, options: TaskOptions, costs: CostBudget | undefined): Promise<SubagentFacts> {
  const prompt = run.prompts[index]!;
  const label = `[${index + 1}]`;
  const task = Task.create(options, prompt);
  task.onUpdate((update) => {
    if (update.type !== 'event') return;
    const event = update.event;
    if (event.type === 'tool_requested' && !isTool(event.tool, 'attempt_completion')) {
      const subject = toolSubject(event.tool, event.params)?.text;
      run.progress(`${label} ${event.tool}${subject ? ` ${subject}` : ''}\n`);
    }
  });
  const stop = () => task.abort();
  const own = run.started?.({ index, taskId: task.id, prompt });
  run.signal.addEventListener('abort', stop, { once: true });
  own?.addEventListener('abort', stop, { once: true });
  run.progress(`${label} started: ${firstLine(prompt)}\n`);
  let outcome: TaskOutcome;
  try {
    outcome = run.signal.aborted || own?.aborted ? { status: 'aborted' } : await task.run(costs ? { costs } : {});
  } catch (error) {
    outcome = { status: 'failed', error: (error as Error).message };
  } finally {
    run.signal.removeEventListener('abort', stop);
    own?.removeEventListener('abort', stop);
  }
  const usage = usageTotals(task.log.events);
  const spent = {
    requests: task.log.events.filter((e) => e.type === 'model_response').length,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    ...(usage.cost !== undefined ? { cost: usage.cost } : {}),
  };
  const ended = outcomeFacts(outcome);
  run.progress(`${label} ${ended.status === 'completed' ? 'reported' : ended.status}\n`);
  return { taskId: task.id, prompt, ...ended, ...spent };
}

function outcomeFacts(outcome: TaskOutcome): Pick<SubagentFacts, 'status' | 'report' | 'error'> {
  switch (outcome.status) {
    case 'completed':
      return { status: 'completed', report: outcome.result };
    case 'failed':
      return { status: 'failed', error: outcome.error };
    case 'aborted':
      return { status: 'cancelled', error: 'It was stopped before it reported.' };
    case 'new_task':
      return { status: 'failed', error: 'It tried to hand over to a new task, which sub-agents cannot.' };
  }
}

/**
 * A child's options: the model of the parent's mode (a child itself runs in Act mode, where it can
 * report), the parent's permission rules, hooks and workspace, with the tools the catalogue gives
 * sub-agents (the read-only tools, web_fetch, the MCP tools, attempt_completion), its own request budget, no checkpoints (it edits nothing), and its log inside
 * the parent's folder. Its cost limit is no limit of its own: it spends from the parent's budget.
 */
function childOptions(parent: TaskOptions, parentTaskId: string, settings: SubagentSettings, parentMode: Mode): TaskOptions {
  const { checkpoints: _checkpoints, onEvent: _onEvent, expandMentions: _expandMentions, maxCost: _maxCost, providerForMode: _modes, ...shared } = parent;
  const handlers = parent.tools
    .specs()
    .filter((spec) => toolEntry(spec.name)?.subagents === true)
    .map((spec) => parent.tools.get(spec.name)!);
  return {
    ...shared,
    provider: parent.providerForMode?.[parentMode] ?? parent.provider,
    storageDir: subagentStorage(parent.storageDir, parentTaskId),
    // A child never asks the user to go on past a limit: reaching one ends it, and the parent is told.
    host: { ...parent.host, questions: { ask: async () => undefined } },
    tools: new ToolRegistry(handlers),
    maxIterations: settings.maxRequests,
    extraPromptSections: () => [...(parent.extraPromptSections?.() ?? []), CHILD_PROMPT],
  };
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
