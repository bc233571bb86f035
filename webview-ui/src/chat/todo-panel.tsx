import { useState } from 'react';
import { formatTodoList, parseTodoList, type TodoItem, type TodoStatus } from '../../../src/shared/todo-items.js';
import { useActions } from '../common/actions-context.js';
import { Codicon } from '../common/codicon.js';
import { IconButton } from '../common/icon-button.js';

const ICONS: Readonly<Record<TodoStatus, string>> = { pending: 'circle-large-outline', in_progress: 'arrow-circle-right', completed: 'pass-filled' };
const LABELS: Readonly<Record<TodoStatus, string>> = { pending: 'to do', in_progress: 'in progress', completed: 'done' };
const NEXT: Readonly<Record<TodoStatus, TodoStatus>> = { pending: 'in_progress', in_progress: 'completed', completed: 'pending' };

/**
 * The task's todo list, pinned above the chat and updated as the model keeps it. The user can
 * change an item's status (click it) or edit the whole list as a Markdown checklist; the model
 * reads the edited list with its next request.
 */
export function TodoPanel({ taskId, items }: { taskId: string; items: readonly TodoItem[] }) {
  const { send } = useActions();
  const [open, setOpen] = useState(true);
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const done = items.filter((item) => item.status === 'completed').length;
  const current = items.find((item) => item.status === 'in_progress');
  const save = (edited: readonly TodoItem[]) => send({ type: 'editTodos', taskId, items: [...edited] });
  const cycle = (index: number) => save(items.map((item, i) => (i === index ? { ...item, status: NEXT[item.status] } : item)));
  const parsed = draft === undefined ? undefined : parseTodoList(draft);

  return (
    <section className="todo-panel" aria-label="Todo list">
      <div className="todo-header">
        <button type="button" className="link-button todo-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <Codicon name={open ? 'chevron-down' : 'chevron-right'} /> Todo {done}/{items.length}
        </button>
        {!open && current !== undefined && <span className="todo-current muted">{current.text}</span>}
        {open && draft === undefined && <IconButton icon="edit" label="Edit the todo list" onClick={() => setDraft(formatTodoList(items))} />}
      </div>
      {open && draft === undefined && (
        <ul className="todo-items">
          {items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: items have no identity but their place in the list
            <li key={index} className={`todo-item todo-${item.status}`}>
              <button
                type="button"
                className="todo-status"
                title={`${LABELS[item.status]}; click for ${LABELS[NEXT[item.status]]}`}
                aria-label={`${item.text}: ${LABELS[item.status]}`}
                onClick={() => cycle(index)}
              >
                <Codicon name={ICONS[item.status]} />
              </button>
              <span className="todo-text">{item.text}</span>
            </li>
          ))}
        </ul>
      )}
      {open && draft !== undefined && (
        <div className="todo-edit">
          <textarea
            aria-label="Todo list as a checklist"
            rows={Math.min(12, Math.max(3, draft.split('\n').length))}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          <p className="muted small">
            One item per line: <code>- [ ]</code> to do, <code>- [-]</code> in progress, <code>- [x]</code> done.
          </p>
          <div className="todo-edit-actions">
            <button
              type="button"
              className="primary-button"
              disabled={parsed === undefined}
              onClick={() => {
                if (parsed === undefined) return;
                save(parsed);
                setDraft(undefined);
              }}
            >
              Save
            </button>
            <button type="button" className="secondary-button" onClick={() => setDraft(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
