import type { LiveTask } from '../../../src/shared/protocol.js';
import { Codicon } from '../common/codicon.js';
import { useActions } from '../common/actions-context.js';
import { formatCost } from '../common/format.js';
import { IconButton } from '../common/icon-button.js';

/** Each status as the list says it, and its icon. */
const STATUS: Readonly<Record<LiveTask['status'], { readonly label: string; readonly icon: string }>> = {
  running: { label: 'Working', icon: 'loading' },
  awaiting_approval: { label: 'Waiting for approval', icon: 'bell-dot' },
  awaiting_answer: { label: 'Waiting for an answer', icon: 'question' },
  completed: { label: 'Done', icon: 'pass' },
  failed: { label: 'Failed', icon: 'error' },
  aborted: { label: 'Stopped', icon: 'debug-stop' },
  interrupted: { label: 'Interrupted', icon: 'debug-pause' },
  idle: { label: 'Idle', icon: 'circle-outline' },
};

const BUSY: ReadonlySet<LiveTask['status']> = new Set(['running', 'awaiting_approval', 'awaiting_answer']);

/** The status of a task as the list words it (Working, Waiting for approval, Done …). */
export function taskStatusLabel(status: LiveTask['status']): string {
  return STATUS[status].label;
}

/**
 * The tasks the panel runs or holds, at the top of the chat once there is more than the one shown:
 * each with its state and cost, the shown one marked. Clicking one shows it (nothing stops);
 * Stop ends a running task's step, Close lets go of a task (stopping it first), the others run on.
 * A task waiting for approval carries a badge, so a wait in a task not shown is seen.
 */
export function TaskList({ tasks, shownId }: { tasks: readonly LiveTask[] | undefined; shownId: string | undefined }) {
  const { send } = useActions();
  if (tasks === undefined || tasks.length === 0 || (tasks.length === 1 && tasks[0]!.id === shownId)) return null;
  const running = tasks.filter((task) => BUSY.has(task.status)).length;
  const priced = tasks.filter((task) => task.cost !== undefined);
  const total = priced.reduce((sum, task) => sum + task.cost!, 0);
  return (
    <nav className="task-list" aria-label="Tasks">
      <div className="task-list-head muted small">
        <span>
          {tasks.length} tasks, {running} running
        </span>
        {priced.length > 0 && (
          <span className="cost" title="The cost of the tasks listed, together">
            Total {formatCost(total)}
          </span>
        )}
      </div>
      <ul>
        {tasks.map((task) => {
          const status = STATUS[task.status];
          const shown = task.id === shownId;
          return (
            <li key={task.id} className={`task-entry${shown ? ' shown' : ''} status-${task.status}`}>
              <button
                type="button"
                className="task-switch"
                aria-current={shown ? 'true' : undefined}
                aria-label={`${task.title}: ${status.label}${task.worktree !== undefined ? `, on ${task.worktree.branch}` : ''}${task.cost !== undefined ? `, ${formatCost(task.cost)}` : ''}`}
                title={shown ? 'Shown in the chat' : 'Show this task (it keeps running)'}
                onClick={() => !shown && send({ type: 'openTask', taskId: task.id })}
              >
                <Codicon name={status.icon} spin={task.status === 'running'} />
                <span className="task-title">{task.title}</span>
                {task.worktree !== undefined && (
                  <span className="task-branch muted small mono">
                    <Codicon name="git-branch" />
                    {task.worktree.branch}
                  </span>
                )}
                {task.status === 'awaiting_approval' ? (
                  <span className="task-badge" role="status">
                    {status.label}
                  </span>
                ) : (
                  <span className="task-state muted small">{status.label}</span>
                )}
                {task.cost !== undefined && <span className="task-cost muted small">{formatCost(task.cost)}</span>}
              </button>
              {BUSY.has(task.status) && (
                <IconButton icon="debug-stop" label={`Stop task: ${task.title}`} onClick={() => send({ type: 'cancelTask', taskId: task.id })} />
              )}
              <IconButton icon="close" label={`Close task: ${task.title}`} onClick={() => send({ type: 'closeTask', taskId: task.id })} />
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
