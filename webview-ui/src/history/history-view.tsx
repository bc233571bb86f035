import { useMemo, useState } from 'react';
import type { HistoryItem, PanelState } from '../../../src/shared/protocol.js';
import { Codicon } from '../common/codicon.js';
import { IconButton } from '../common/icon-button.js';
import { PageHeader } from '../common/page-header.js';
import { useActions } from '../common/actions-context.js';
import { formatBytes, formatCost, formatDate } from '../common/format.js';
import { NewTaskForm } from './new-task-form.js';
import { ReplayForm } from './replay-form.js';

type Order = 'newest' | 'oldest' | 'costliest';

/** The history's orders; a task without a known cost sorts as free. */
const ORDERS: Readonly<Record<Order, { readonly label: string; readonly compare: (a: HistoryItem, b: HistoryItem) => number }>> = {
  newest: { label: 'Newest first', compare: (a, b) => b.updatedAt - a.updatedAt },
  oldest: { label: 'Oldest first', compare: (a, b) => a.updatedAt - b.updatedAt },
  costliest: { label: 'Most expensive first', compare: (a, b) => (b.cost ?? 0) - (a.cost ?? 0) || b.updatedAt - a.updatedAt },
};

/** Stored tasks, newest first, with a filter. */
export function HistoryView({
  history,
  loading = false,
  onOpen,
  onBack,
  onStarted,
  baseBranches,
  defaultModel = '',
}: {
  history: readonly HistoryItem[];
  /** The stored tasks are still being read: an empty list means nothing yet. */
  loading?: boolean;
  onOpen: (taskId: string) => void;
  onBack: () => void;
  /** A task was started from "New task…": the chat shows it. */
  onStarted: () => void;
  /** The local branches a new worktree can start from, as last listed. */
  baseBranches?: PanelState['baseBranches'];
  defaultModel?: string;
}) {
  const [creating, setCreating] = useState(false);
  const [filter, setFilter] = useState('');
  const [order, setOrder] = useState<Order>('newest');
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return [...history].filter((item) => needle === '' || item.task.toLowerCase().includes(needle)).sort(ORDERS[order].compare);
  }, [history, filter, order]);

  return (
    <div className="page">
      <PageHeader title="History" onBack={onBack} />
      {creating ? (
        <NewTaskForm
          bases={baseBranches}
          onStarted={() => {
            setCreating(false);
            onStarted();
          }}
          onClose={() => setCreating(false)}
        />
      ) : (
        <button type="button" className="secondary-button new-task-button" onClick={() => setCreating(true)}>
          <Codicon name="add" /> New task…
        </button>
      )}
      <div className="history-controls">
        <input
          type="search"
          className="history-filter"
          aria-label="Filter history"
          placeholder="Search the tasks"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
        <select aria-label="Sort history" value={order} onChange={(event) => setOrder(event.target.value as Order)}>
          {(Object.keys(ORDERS) as Order[]).map((key) => (
            <option key={key} value={key}>
              {ORDERS[key].label}
            </option>
          ))}
        </select>
      </div>
      {shown.length === 0 ? (
        <p className="muted">{history.length > 0 ? 'No task matches the filter.' : loading ? 'Reading the stored tasks…' : 'No tasks yet.'}</p>
      ) : (
        <ul className="history-list">
          {shown.map((item) => (
            <HistoryRow key={item.taskId} item={item} onOpen={onOpen} defaultModel={defaultModel} />
          ))}
        </ul>
      )}
    </div>
  );
}

function HistoryRow({ item, onOpen, defaultModel }: { item: HistoryItem; onOpen: (taskId: string) => void; defaultModel: string }) {
  const { send } = useActions();
  // Deleting loses the task's log for good, so it takes a second click.
  const [confirming, setConfirming] = useState(false);
  const [replaying, setReplaying] = useState(false);
  return (
    <li className="history-item">
      <div className="history-text" title={item.task}>
        {item.task}
      </div>
      <div className="history-meta muted small">
        <span>{formatDate(item.updatedAt)}</span>
        <span className={`history-status status-${item.status}`}>{item.status}</span>
        {item.cost !== undefined && <span title="Cost of the task">{formatCost(item.cost)}</span>}
        {item.checkpointBytes !== undefined && <span title="Storage taken by this task's checkpoints">{formatBytes(item.checkpointBytes)} of checkpoints</span>}
      </div>
      <div className="history-actions">
        {confirming ? (
          <>
            <span className="small">Delete this task?</span>
            <button
              type="button"
              className="secondary-button danger"
              aria-label={`Confirm delete: ${item.task}`}
              onClick={() => send({ type: 'deleteTask', taskId: item.taskId })}
            >
              Delete
            </button>
            <button type="button" className="secondary-button" aria-label={`Keep: ${item.task}`} onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <>
            <button type="button" className="secondary-button" aria-label={`Open: ${item.task}`} onClick={() => onOpen(item.taskId)}>
              <Codicon name="go-to-file" /> Open
            </button>
            <IconButton icon="export" label={`Export: ${item.task}`} onClick={() => send({ type: 'exportTask', taskId: item.taskId })} />
            <IconButton icon="debug-rerun" label={`Replay with…: ${item.task}`} onClick={() => setReplaying(true)} />
            <IconButton icon="trash" label={`Delete: ${item.task}`} onClick={() => setConfirming(true)} />
          </>
        )}
      </div>
      {replaying && <ReplayForm item={item} defaultModel={defaultModel} onClose={() => setReplaying(false)} />}
    </li>
  );
}
