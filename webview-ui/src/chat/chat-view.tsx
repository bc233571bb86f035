import { useDeferredValue, useMemo } from 'react';
import type { PanelState } from '../../../src/shared/protocol.js';
import type { WebviewState } from '../state/panel-reducer.js';
import { ApprovalBar } from './approval-bar.js';
import { buildChatItems } from './chat-items.js';
import { ChatHeader } from './chat-header.js';
import { Composer } from './composer.js';
import { MessageList } from './message-list.js';

/** The chat screen: header, the task's messages, the pending approval and the composer. */
export function ChatView({ state, panel, onOpenTask, onInsertsTaken }: {
  state: WebviewState;
  panel: PanelState;
  onOpenTask: (taskId: string) => void;
  /** The composer took the first `count` of `state.inserts`. */
  onInsertsTaken: (count: number) => void;
}) {
  const task = panel.task;
  // Streaming chunks arrive faster than frames; let React drop intermediate renders under load.
  const streaming = useDeferredValue(state.streaming);
  const items = useMemo(
    () => (task === undefined ? [] : buildChatItems(task, streaming, state.liveOutput)),
    [task, streaming, state.liveOutput],
  );

  return (
    <div className="chat-view">
      <ChatHeader panel={panel} task={task} />
      {task === undefined ? <Welcome panel={panel} onOpenTask={onOpenTask} /> : <MessageList items={items} taskId={task.id} />}
      {task?.pendingApproval !== undefined && <ApprovalBar key={task.pendingApproval.callId} approval={task.pendingApproval} />}
      <Composer task={task} inserts={state.inserts} onInsertsTaken={onInsertsTaken} />
    </div>
  );
}

function Welcome({ panel, onOpenTask }: { panel: PanelState; onOpenTask: (taskId: string) => void }) {
  const recent = [...panel.history].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, 3);
  return (
    <div className="welcome">
      <h2>What should Smith do?</h2>
      <p className="muted">Describe a task below. Smith reads your workspace, proposes edits and asks before anything risky.</p>
      {recent.length > 0 && (
        <div className="recent">
          <h3 className="muted small">Recent</h3>
          {recent.map((item) => (
            <button key={item.taskId} type="button" className="link-button recent-task" onClick={() => onOpenTask(item.taskId)} aria-label={`Open task: ${item.task}`}>
              {item.task}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
