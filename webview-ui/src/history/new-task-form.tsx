import { useState } from 'react';
import type { PanelState } from '../../../src/shared/protocol.js';
import { useActions } from '../common/actions-context.js';

type Where = 'workspace' | 'worktree';

/**
 * "New task…" in the History view: the task's text and where it runs — in this workspace, or in a
 * new git worktree (docs/parallel-tasks.md) with an optional name and a base chosen from the local
 * branches (default: the one checked out). `onStarted` once the host has started it.
 */
export function NewTaskForm({ bases, onStarted, onClose }: { bases: PanelState['baseBranches']; onStarted: () => void; onClose: () => void }) {
  const { request, send, reportError } = useActions();
  const [text, setText] = useState('');
  const [where, setWhere] = useState<Where>('workspace');
  const [name, setName] = useState('');
  const [base, setBase] = useState<string | undefined>(undefined);
  const [starting, setStarting] = useState(false);
  // The branches are read each time the worktree is chosen, so a branch made meanwhile is there.
  const chooseWorktree = () => {
    setWhere('worktree');
    send({ type: 'listBaseBranches' });
  };
  const branches = bases?.branches ?? [];
  const chosenBase = base ?? bases?.current ?? branches[0];
  const listed = bases !== undefined && bases.problem === undefined;
  const canStart = text.trim() !== '' && !starting && (where === 'workspace' || (listed && chosenBase !== undefined));
  const submit = () => {
    if (!canStart) return;
    setStarting(true);
    request({
      type: 'newTask',
      text,
      ...(where === 'worktree'
        ? { worktree: true, ...(name.trim() ? { worktreeName: name.trim() } : {}), ...(chosenBase ? { worktreeBase: chosenBase } : {}) }
        : {}),
    }).then(
      () => {
        setStarting(false);
        onStarted();
      },
      (error: unknown) => {
        setStarting(false);
        reportError(error);
      },
    );
  };
  return (
    <form
      className="new-task-form"
      aria-label="New task"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <textarea aria-label="New task text" placeholder="Describe the task" rows={3} value={text} onChange={(event) => setText(event.target.value)} />
      <fieldset className="new-task-where">
        <legend className="small">Where it runs</legend>
        <label>
          <input type="radio" name="new-task-where" checked={where === 'workspace'} onChange={() => setWhere('workspace')} /> In this workspace
        </label>
        <label>
          <input type="radio" name="new-task-where" checked={where === 'worktree'} onChange={chooseWorktree} /> In a new worktree
        </label>
      </fieldset>
      {where === 'worktree' && (
        <div className="new-task-worktree">
          <label className="small">
            Worktree name (optional)
            <input aria-label="Worktree name (optional)" placeholder="From the task" value={name} onChange={(event) => setName(event.target.value)} />
          </label>
          {bases === undefined ? (
            <span className="muted small" role="status">
              Reading the branches…
            </span>
          ) : bases.problem !== undefined ? (
            <span className="small" role="alert">
              {bases.problem}
            </span>
          ) : (
            <label className="small">
              Base branch
              <select aria-label="Base branch" value={chosenBase ?? ''} onChange={(event) => setBase(event.target.value)}>
                {branches.map((branch) => (
                  <option key={branch} value={branch}>
                    {branch}
                    {branch === bases.current ? ' (checked out)' : ''}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
      )}
      <div className="new-task-buttons">
        <button type="submit" className="primary-button" disabled={!canStart}>
          {starting ? 'Starting…' : 'Start task'}
        </button>
        <button type="button" className="secondary-button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
