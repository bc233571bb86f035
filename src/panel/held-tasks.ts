import type { TaskEvent } from '../core/log/events.js';
import { taskStatus } from '../core/log/task-log.js';
import { usageTotals } from '../core/log/usage-totals.js';
import type { LiveTask, WorktreeView } from '../shared/protocol.js';
import { eventsOf, type OpenTask } from './open-task.js';
import { runStatus } from './panel-state.js';
import type { WebviewInteractions } from './webview-interactions.js';

/** What a listed task's log says, kept until the log grows. */
interface LogFacts {
  readonly length: number;
  readonly title: string;
  readonly status: ReturnType<typeof taskStatus>;
  readonly cost?: number;
}

/**
 * The tasks the panel holds, by id, and which one it shows. Several can run at once, each with its
 * own environment (commands, checkpoints, limits) and its own approval channel; which tasks stay
 * held when the chat leaves them is the TaskController's rule (leaveShown).
 */
export class HeldTasks {
  private readonly held = new Map<string, OpenTask>();
  private shownId: string | undefined;
  private readonly facts = new WeakMap<OpenTask, LogFacts>();

  constructor(private readonly interactions: Pick<WebviewInteractions, 'approvalOf' | 'questionOf'>) {}

  /** The task the chat shows. */
  get shown(): OpenTask | undefined {
    return this.shownId === undefined ? undefined : this.held.get(this.shownId);
  }

  /** The held task `taskId`; without an id, the shown one. */
  get(taskId?: string): OpenTask | undefined {
    return taskId === undefined ? this.shown : this.held.get(taskId);
  }

  /** The held task `taskId` (or the shown one); throws when the panel no longer holds it. */
  require(taskId?: string): OpenTask {
    const open = this.get(taskId);
    if (!open) throw new Error(taskId === undefined ? 'No task is open.' : 'That task is no longer open in the panel.');
    return open;
  }

  holds(open: OpenTask): boolean {
    return this.held.get(open.id) === open;
  }

  /** Holds `open` and shows it (undefined: an empty chat). The task shown before stays held. */
  show(open: OpenTask | undefined): void {
    if (open) this.held.set(open.id, open);
    this.shownId = open?.id;
  }

  /** A hand-over: `next` takes `previous`'s place, shown when `previous` was. */
  replace(previous: OpenTask, next: OpenTask): void {
    const wasShown = this.shownId === previous.id;
    this.held.delete(previous.id);
    this.held.set(next.id, next);
    if (wasShown) this.shownId = next.id;
  }

  /** Lets go of `open` (an empty chat when it was shown). */
  remove(open: OpenTask): void {
    if (!this.holds(open)) return;
    this.held.delete(open.id);
    if (this.shownId === open.id) this.shownId = undefined;
  }

  all(): OpenTask[] {
    return [...this.held.values()];
  }

  /** The task list: every held task that ran or runs here (a stored task only viewed is not listed), oldest first. */
  list(): LiveTask[] {
    const tasks: LiveTask[] = [];
    for (const open of this.held.values()) {
      if (open.stored) continue;
      const facts = this.logFacts(open);
      const status = open.run
        ? runStatus([], true, { approval: this.interactions.approvalOf(open.id) !== undefined, question: this.interactions.questionOf(open.id) !== undefined })
        : facts.status;
      tasks.push({
        id: open.id,
        title: facts.title,
        status,
        ...(facts.cost !== undefined ? { cost: facts.cost } : {}),
        ...(open.worktree ? { worktree: worktreeView(open.worktree) } : {}),
      });
    }
    return tasks;
  }

  /** The title, status and cost of a task's log, read again only when the log has grown. */
  private logFacts(open: OpenTask): LogFacts {
    const events = eventsOf(open);
    const known = this.facts.get(open);
    if (known?.length === events.length) return known;
    const cost = usageTotals(events).cost;
    const facts: LogFacts = { length: events.length, title: titleOf(events), status: taskStatus(events), ...(cost !== undefined ? { cost } : {}) };
    this.facts.set(open, facts);
    return facts;
  }
}

/** A worktree as the task list shows it. */
function worktreeView(held: NonNullable<OpenTask['worktree']>): WorktreeView {
  const { name, branch, base, path } = held.worktree;
  return {
    name,
    branch,
    base,
    path,
    ...(held.outcome ? { outcome: held.outcome } : {}),
    ...(held.url ? { url: held.url } : {}),
    commands: [...held.commands],
  };
}

/** The first line of the task's text, capped: a list entry is a glance. */
export function titleOf(events: readonly TaskEvent[]): string {
  const started = events.find((e) => e.type === 'task_started');
  const text = started?.type === 'task_started' ? started.task : '';
  const first = text.trim().split('\n')[0] ?? '';
  return first.length > 80 ? `${first.slice(0, 79)}…` : first || 'Task';
}
