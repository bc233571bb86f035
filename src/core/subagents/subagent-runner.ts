import { join } from 'node:path';
import type { SubagentFacts } from '../../shared/tool-details.js';
import { isTool } from '../../shared/tool-catalogue.js';
import { toolSubject } from '../../shared/tool-subject.js';
import { newTaskId } from '../task/new-task-id.js';
import { Task, type TaskOptions, type TaskOutcome } from '../task/task.js';
import { readTaskEvents, taskDir } from '../log/task-log.js';
import { currentPlanActAndMode } from '../task/turn-setup.js';
import { fileVersionsOf } from '../task/tool-call-environment.js';
import { usageTotals } from '../log/usage-totals.js';
import type { CostBudget } from '../log/cost-budget.js';
import type { TaskEvent } from '../log/events.js';
import { carrySkill } from '../skills/active-skill.js';
import type { SubagentStart } from '../tool-kit/tool-spec.js';
import { ToolRegistry } from '../tool-kit/tool-registry.js';
import { BUILT_IN_MODES } from '../modes/built-in-modes.js';
import type { SubagentRequest } from '../tools/use-subagents.js';
import { declarationsOverlap } from '../permissions/edit-scope.js';
import type { ApiProvider } from '../providers/types.js';
import type { ApprovalPort } from '../ports.js';
import type { AgentDefinition } from './agent-files.js';
import { planSubagents, type SubagentPlan } from './subagent-plan.js';
import { SubagentApprovals } from './subagent-approvals.js';

/** How sub-agents run (`smith.subagents.*`, `--max-subagents`). */
export interface SubagentSettings {
  /** Child tasks running at once; more prompts wait for a free place. */
  readonly maxParallel: number;
  /** Model requests each child may make before it must report. */
  readonly maxRequests: number;
}

export const DEFAULT_SUBAGENT_SETTINGS: SubagentSettings = { maxParallel: 3, maxRequests: 15 };

const RESEARCH_PROMPT = `# Sub-agent

You are a sub-agent: another agent gave you one research question and waits for your answer. You can read, list and search files, fetch web pages and use the MCP tools listed (each call is approved as usual); you cannot edit files or run commands. Investigate only what the question needs, then answer with attempt_completion: a concise report with the facts found (file paths, line numbers, names), no more than a few paragraphs. Your report is all the other agent will see.`;

function delegatedPrompt(plan: SubagentPlan): string {
  const paths =
    plan.writes === 'nothing'
      ? 'You cannot edit files or run commands.'
      : `You may edit only these paths (workspace-relative, .gitignore syntax): ${(plan.request.paths ?? []).join(', ')}. An edit anywhere else is refused${plan.writes === 'everything' ? '; do not use commands to write elsewhere either' : ''}.`;
  return `# Sub-agent

You are a sub-agent: another agent handed you one task and waits for your report. ${paths} Every call is approved as the other agent's are. Do only what the task asks, then finish with attempt_completion: a concise report of what you did and found (files changed, commands run and their outcome), no more than a few paragraphs. Your report is all the other agent will see; you cannot ask the user questions.`;
}

/** Where a task's sub-agents keep their logs: inside the parent's folder, so they go with it and stay out of the history. */
export function subagentStorage(storageDir: string, parentTaskId: string): string {
  return join(taskDir(storageDir, parentTaskId), 'subagents');
}

/** One use_subagents call: its requests, the parent task, and where progress lines go. */
interface SubagentRun {
  readonly requests: readonly SubagentRequest[];
  readonly parentTaskId: string;
  readonly signal: AbortSignal;
  progress(text: string): void;
  /** The parent's cost budget: every child spends from it, live, so together they stay within the parent's limit. */
  readonly costs?: CostBudget;
  /** Logs a child's start; the signal it returns stops that child alone. */
  started?(child: SubagentStart): AbortSignal;
}

/** What delegation knows beyond the parent's options: the custom agents and another model on the main provider. */
export interface Delegation {
  readonly agents: () => readonly AgentDefinition[];
  readonly withModel?: (modelId: string) => ApiProvider;
}

/**
 * Runs each request as a child task (its own log and context window, its tools, a request budget).
 * At most `maxParallel` run at once, and a sub-agent that writes never runs beside another whose
 * writes could meet its own (declarationsOverlap): it waits for a free place. Returns each child's
 * report and usage, or what is wrong with the call (nothing started). A child that fails or is
 * stopped is reported as such; the others go on.
 */
export async function runSubagents(
  run: SubagentRun,
  parent: TaskOptions,
  settings: SubagentSettings,
  delegation?: Delegation,
): Promise<SubagentFacts[] | string> {
  // The parent's log on disk (flushed as written) says its Plan or Act, whose model the children use.
  const parentEvents = readTaskEvents(parent.storageDir, run.parentTaskId);
  const parentMode = currentPlanActAndMode(parentEvents).mode;
  const modes = parent.modes ?? BUILT_IN_MODES;
  const plans = planSubagents(run.requests, {
    tools: parent.tools,
    provider: parent.providerForMode?.[parentMode] ?? parent.provider,
    agents: delegation?.agents() ?? [],
    modes,
    ...(delegation?.withModel ? { withModel: delegation.withModel } : {}),
  });
  if (typeof plans === 'string') return plans;
  const approvals = new SubagentApprovals(parent.host.approvals);
  const results: SubagentFacts[] = new Array(plans.length);
  const waiting = plans.map((_, index) => index);
  const running = new Set<number>();
  await new Promise<void>((resolve) => {
    const pump = () => {
      if (waiting.length === 0 && running.size === 0) return resolve();
      for (let at = 0; at < waiting.length && running.size < settings.maxParallel; ) {
        const index = waiting[at]!;
        if ([...running].some((other) => collide(plans[index]!, plans[other]!))) {
          at++;
          continue;
        }
        waiting.splice(at, 1);
        running.add(index);
        const taskId = newTaskId();
        const options = childOptions(
          parent,
          run.parentTaskId,
          settings,
          plans[index]!,
          modes,
          approvals.portFor({ index, taskId, ...(plans[index]!.name ? { name: plans[index]!.name } : {}) }),
        );
        void runChild(index, taskId, plans[index]!, run, options, parentEvents).then((facts) => {
          results[index] = facts;
          running.delete(index);
          pump();
        });
      }
    };
    pump();
  });
  return results;
}

/** Two sub-agents that both write, and whose writes could meet, must not run at once. */
function collide(a: SubagentPlan, b: SubagentPlan): boolean {
  if (a.writes === 'nothing' || b.writes === 'nothing') return false;
  return declarationsOverlap(a.writes, b.writes);
}

async function runChild(
  index: number,
  taskId: string,
  plan: SubagentPlan,
  run: SubagentRun,
  options: TaskOptions,
  parentEvents: readonly TaskEvent[],
): Promise<SubagentFacts> {
  const prompt = plan.request.prompt;
  const label = `[${index + 1}]`;
  const who = describe(plan);
  let task: Task;
  try {
    task = Task.create(options, prompt, { taskId, ...(plan.mode ? { modeSlug: plan.mode.slug } : {}) });
    // The parent's skill in force limits its sub-agents too: a sub-agent is no way around its allowed-tools.
    carrySkill(parentEvents, task.log, run.parentTaskId);
  } catch (error) {
    return { taskId, prompt, ...who, status: 'failed', error: (error as Error).message, requests: 0, inputTokens: 0, outputTokens: 0 };
  }
  task.onUpdate((update) => {
    if (update.type !== 'event') return;
    const event = update.event;
    if (event.type === 'tool_requested' && !isTool(event.tool, 'attempt_completion')) {
      const subject = toolSubject(event.tool, event.params)?.text;
      run.progress(`${label} ${event.tool}${subject ? ` ${subject}` : ''}\n`);
    }
  });
  const stop = () => task.abort();
  const own = run.started?.({
    index,
    taskId: task.id,
    prompt,
    ...(plan.name ? { name: plan.name } : {}),
    ...(plan.request.paths ? { paths: plan.request.paths } : {}),
  });
  run.signal.addEventListener('abort', stop, { once: true });
  own?.addEventListener('abort', stop, { once: true });
  run.progress(`${label} started${plan.name ? ` (${plan.name})` : ''}: ${firstLine(prompt)}\n`);
  if (plan.note) run.progress(`${label} ${plan.note}\n`);
  let outcome: TaskOutcome;
  try {
    outcome = run.signal.aborted || own?.aborted ? { status: 'aborted' } : await task.run(run.costs ? { costs: run.costs } : {});
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
  return { taskId: task.id, prompt, ...who, ...ended, ...spent };
}

function describe(plan: SubagentPlan): Pick<SubagentFacts, 'agent' | 'mode' | 'paths'> {
  return {
    ...(plan.request.agent ? { agent: plan.request.agent } : {}),
    ...(plan.request.mode ? { mode: plan.request.mode } : {}),
    ...(plan.request.paths ? { paths: [...plan.request.paths] } : {}),
  };
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
 * A child's options: its plan's model and tools, the parent's permission rules, hooks, sandbox
 * (the host's confined processes) and workspace, its declared paths as its edit scope, its own
 * request budget, and its log inside the parent's folder. It asks through the parent's approvals,
 * one question at a time, naming itself. It takes no checkpoints of its own: the parent takes one
 * after the call, so a rewind to before it undoes every sub-agent's edits; the file versions it
 * reads and writes are kept in the parent's store. Its cost limit is no
 * limit of its own: it spends from the parent's budget.
 */
function childOptions(
  parent: TaskOptions,
  parentTaskId: string,
  settings: SubagentSettings,
  plan: SubagentPlan,
  modes: TaskOptions['modes'] & object,
  approvals: ApprovalPort,
): TaskOptions {
  const {
    checkpoints: _checkpoints,
    onEvent: _onEvent,
    expandMentions: _expandMentions,
    maxCost: _maxCost,
    providerForMode: _modes,
    editScope: _scope,
    agentSkills: _agentSkills,
    ...shared
  } = parent;
  return {
    ...shared,
    provider: plan.provider,
    storageDir: subagentStorage(parent.storageDir, parentTaskId),
    host: {
      ...parent.host,
      // Its approvals are the parent's (the panel and terminal say which sub-agent asks); it never asks the user to go on past a limit.
      approvals,
      questions: { ask: async () => undefined },
    },
    tools: new ToolRegistry(plan.tools),
    modes: plan.mode && !modes.some((m) => m.slug === plan.mode!.slug) ? [...modes, plan.mode] : modes,
    ...(plan.writes !== 'nothing' ? { editScope: { patterns: plan.request.paths ?? [], owner: plan.owner } } : {}),
    // Its reads and writes are kept in the parent's store, so its edits of files changed since it read them can be merged.
    ...(fileVersionsOf(parent) ? { fileVersions: fileVersionsOf(parent) } : {}),
    maxIterations: settings.maxRequests,
    extraPromptSections: () => [...(parent.extraPromptSections?.() ?? []), plan.name || plan.writes !== 'nothing' ? delegatedPrompt(plan) : RESEARCH_PROMPT],
  };
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
