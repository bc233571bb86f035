import { todoListSection } from '../context/todo-list.js';
import type { TaskEvent } from '../log/events.js';
import { visibleEvents } from '../log/visible-events.js';
import type { TaskOptions } from './task-types.js';
import type { TurnSetup } from './turn-setup.js';

/** Facts about the workspace sent with every request, so the model sees the present state. */
interface EnvironmentFacts {
  readonly now: number;
  readonly cwd: string;
  /** A capped listing of the workspace, sent with the first request only. */
  readonly fileListing?: string;
  readonly mode?: string;
  readonly extra?: readonly string[];
}

/** Renders the environment details block (without the surrounding tags). */
export function renderEnvironmentDetails(facts: EnvironmentFacts): string {
  const when = new Date(facts.now);
  const offset = -when.getTimezoneOffset() / 60;
  const parts = [`# Current time\n${when.toISOString()} (UTC${offset >= 0 ? '+' : ''}${offset} local offset)`];
  if (facts.mode) parts.push(`# Current mode\n${facts.mode}`);
  for (const section of facts.extra ?? []) parts.push(section);
  if (facts.fileListing !== undefined) parts.push(`# Workspace files (${facts.cwd})\n${facts.fileListing || '(no files)'}`);
  return parts.join('\n\n');
}

/** The environment details of a task's next request: its mode, the host's sections, its todo list, and the workspace listing on the first request. */
export async function requestEnvironmentDetails(
  options: Pick<TaskOptions, 'host' | 'cwd' | 'environmentSections' | 'listWorkspace'>,
  events: readonly TaskEvent[],
  setup: Pick<TurnSetup, 'mode' | 'activeMode'>,
): Promise<string> {
  const firstRequest = !events.some((e) => e.type === 'request_started');
  return renderEnvironmentDetails({
    now: options.host.clock.now(),
    cwd: options.cwd,
    mode: `${setup.mode === 'plan' ? 'PLAN' : 'ACT'} (Plan/Act), mode "${setup.activeMode.slug}"`,
    extra: [...(options.environmentSections?.() ?? []), todoListSection(visibleEvents(events))].filter((section) => section !== ''),
    ...(firstRequest && options.listWorkspace ? { fileListing: await options.listWorkspace() } : {}),
  });
}
