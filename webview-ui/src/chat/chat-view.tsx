import { useDeferredValue, useMemo } from 'react';
import type { PanelState, TaskView } from '../../../src/shared/protocol.js';
import type { WebviewState } from '../state/panel-reducer.js';
import { ApprovalBar } from './approval-bar.js';
import { buildChatItems } from './chat-items.js';
import { ChatHeader } from './chat-header.js';
import { Composer } from './composer.js';
import { MessageList } from './message-list.js';

/** The chat screen: header, the task's messages, the pending approval and the composer. */
export function ChatView({ state, panel, task, onNewTask, onShowHistory, onShowMcp, onShowSettings, onOpenTask }: {
  state: WebviewState;
  panel: PanelState;
  /** The task to show; undefined when none is open or the user started a new one. */
  task: TaskView | undefined;
  onNewTask: () => void;
  onShowHistory: () => void;
  onShowMcp: () => void;
  onShowSettings: () => void;
  onOpenTask: (taskId: string) => void;
}) {
  // Streaming chunks arrive faster than frames; let React drop intermediate renders under load.
  const streaming = useDeferredValue(state.streaming);
  const items = useMemo(
    () => (task === undefined ? [] : buildChatItems(task, streaming, state.liveOutput)),
    [task, streaming, state.liveOutput],
  );

  return (
    <div className="chat-view">
      <ChatHeader panel={panel} task={task} onNewTask={onNewTask} onShowHistory={onShowHistory} onShowMcp={onShowMcp} onShowSettings={onShowSettings} />
      {task === undefined ? <Welcome panel={panel} onOpenTask={onOpenTask} /> : <MessageList items={items} taskId={task.id} />}
      {task?.pendingApproval !== undefined && <ApprovalBar key={task.pendingApproval.callId} approval={task.pendingApproval} />}
      <Composer task={task} />
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
