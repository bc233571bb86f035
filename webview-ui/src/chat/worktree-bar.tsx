import type { LiveTask, WorktreeAction } from '../../../src/shared/protocol.js';
import { Codicon } from '../common/codicon.js';
import { usePendingRequest } from '../common/use-pending-request.js';

const BUSY: ReadonlySet<LiveTask['status']> = new Set(['running', 'awaiting_approval', 'awaiting_answer']);

const OUTCOMES: Readonly<Record<NonNullable<NonNullable<LiveTask['worktree']>['outcome']>, string>> = {
  merged: 'Merged',
  'pull-request': 'Pull request opened',
  kept: 'Branch kept',
  discarded: 'Discarded',
};

/**
 * The shown task's git worktree: its branch and base, and once the task is done what to do with it
 * (Review changes, Merge, Open pull request, Keep branch, Discard — which asks first when it would
 * lose work). The git commands run for it are listed as they start.
 */
export function WorktreeBar({ task }: { task: LiveTask }) {
  const [pending, send] = usePendingRequest<WorktreeAction>();
  const worktree = task.worktree;
  if (worktree === undefined) return null;
  const done = !BUSY.has(task.status);
  const discarded = worktree.outcome === 'discarded';
  const action = (name: WorktreeAction, label: string, icon: string, enabled: boolean) => (
    <button
      type="button"
      className="secondary-button"
      disabled={!enabled || pending !== undefined}
      onClick={() => send(name, { type: 'worktreeAction', taskId: task.id, action: name })}
    >
      <Codicon name={icon} spin={pending === name} /> {label}
    </button>
  );
  return (
    <section className="worktree-bar" aria-label="Worktree">
      <div className="worktree-head">
        <Codicon name="git-branch" /> <span className="mono">{worktree.branch}</span> <span className="muted small">from {worktree.base}</span>
        {worktree.outcome !== undefined && (
          <span className="worktree-outcome" role="status">
            {OUTCOMES[worktree.outcome]}
            {worktree.url !== undefined && `: ${worktree.url}`}
          </span>
        )}
      </div>
      <div className="button-row" role="group" aria-label="Worktree actions">
        {action('review', 'Review changes', 'diff-multiple', !discarded)}
        {action('merge', 'Merge', 'git-merge', done && !discarded)}
        {action('pullRequest', 'Open pull request', 'git-pull-request-create', done && !discarded)}
        {action('keep', 'Keep branch', 'pinned', done && !discarded)}
        {action('discard', 'Discard', 'trash', done && !discarded)}
      </div>
      {worktree.commands.length > 0 && (
        <details className="worktree-commands" open>
          <summary className="muted small">Git commands ({worktree.commands.length})</summary>
          <ol aria-label="Git commands">
            {worktree.commands.map((command, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list only grows at its end and is cut at its start; a command may repeat
              <li key={i} className="mono small">
                {command}
              </li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}
