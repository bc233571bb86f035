import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { PanelState } from '../../../src/shared/protocol.js';
import type { StreamingView, WebviewState } from '../state/panel-reducer.js';
import { ApprovalBar } from './approval-bar.js';
import { buildChatItems } from './chat-items.js';
import { ChatHeader } from './chat-header.js';
import { Composer } from './composer.js';
import { MessageList } from './message-list.js';
import { TodoPanel } from './todo-panel.js';
import { SubagentChatView } from './subagent-chat.js';
import { Codicon } from '../common/codicon.js';
import { ReturnPendingTask } from '../common/return-pending-task.js';
import { ElicitationForms } from '../mcp/elicitation-form.js';
import { ShownTaskContext } from '../common/task-context.js';
import { TaskList } from './task-list.js';
import { WorktreeBar } from './worktree-bar.js';

/** The longest a streaming answer waits to be drawn while chunks keep coming (ms). */
const STREAM_LAG_MS = 100;

/** The chat screen: header, the task's messages, the pending approval and the composer. */
export function ChatView({
  state,
  panel,
  onOpenTask,
  onOpenSettings,
  onInsertsTaken,
}: {
  state: WebviewState;
  panel: PanelState;
  onOpenTask: (taskId: string) => void;
  onOpenSettings: () => void;
  /** The composer took the first `count` of `state.inserts`. */
  onInsertsTaken: (count: number) => void;
}) {
  const task = panel.task;
  const streaming = useLaggingStream(state.streaming);
  const items = useMemo(() => (task === undefined ? [] : buildChatItems(task, streaming, state.liveOutput)), [task, streaming, state.liveOutput]);

  // With several tasks, the approval says whose call it is (the list shows which task is shown).
  const listed = panel.tasks?.find((live) => live.id === task?.id);
  const approvalTask = (panel.tasks?.length ?? 0) > 1 ? listed?.title : undefined;
  return (
    <ShownTaskContext.Provider value={task?.id}>
      <div className="chat-view">
        <TaskList tasks={panel.tasks} shownId={task?.id} />
        <ChatHeader panel={panel} task={task} />
        {task?.problems !== undefined && task.problems.length > 0 && <LogProblems problems={task.problems} />}
        {task?.todos !== undefined && task.todos.length > 0 && <TodoPanel taskId={task.id} items={task.todos} />}
        {task === undefined ? (
          <Welcome panel={panel} onOpenTask={onOpenTask} onOpenSettings={onOpenSettings} />
        ) : panel.subagentChat !== undefined ? (
          <SubagentChatView chat={panel.subagentChat} title={subagentTitle(task, panel.subagentChat.taskId)} />
        ) : (
          <MessageList items={items} taskId={task.id} olderBefore={(task.messagesFrom ?? 0) > 0 ? task.messages[0]?.id : undefined} />
        )}
        {listed?.worktree !== undefined && <WorktreeBar task={listed} />}
        <ElicitationForms forms={panel.mcp.elicitations} />
        {task?.pendingApproval !== undefined && (
          <ApprovalBar key={`${task.id}:${task.pendingApproval.callId}`} approval={task.pendingApproval} taskTitle={approvalTask} />
        )}
        <Composer
          task={task}
          autoApprove={panel.autoApprove}
          suggestions={panel.mentionSuggestions}
          commandSuggestions={panel.commandSuggestions}
          inserts={state.inserts}
          onInsertsTaken={onInsertsTaken}
        />
      </div>
    </ShownTaskContext.Provider>
  );
}

/**
 * Streaming chunks can arrive faster than the answer's Markdown renders: the stream is shown as it
 * stands once the page is idle (at the latest `STREAM_LAG_MS` later), the chunks between dropped,
 * as React's `useDeferredValue` did (Preact's returns its value unchanged). The lagging copy is
 * shown only while it belongs to the stream still running; once the task has logged the message
 * (the stream ended) or a new response streams, it would draw an answer twice.
 */
function useLaggingStream(current: StreamingView | undefined): StreamingView | undefined {
  const [lagging, setLagging] = useState(current);
  const latest = useRef(current);
  const idle = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    latest.current = current;
    if (lagging === current) return;
    // A stream that starts (or none) is shown at once; only the chunks of one stream wait.
    if (!sameStream(lagging, current)) {
      setLagging(current);
      return;
    }
    idle.current ??= requestIdleCallback(
      () => {
        idle.current = undefined;
        setLagging(latest.current);
      },
      { timeout: STREAM_LAG_MS },
    );
  }, [current, lagging]);
  useEffect(() => () => cancelIdleCallback(idle.current ?? 0), []);
  return sameStream(lagging, current) ? lagging : current;
}

/** Both are parts of the same response's stream. */
function sameStream(a: StreamingView | undefined, b: StreamingView | undefined): boolean {
  return a !== undefined && b !== undefined && a.taskId === b.taskId && a.since === b.since;
}

/** "Sub-agent 2 · fixer: Fix the login" for the sub-agent `taskId` of the task's use_subagents cards. */
function subagentTitle(task: NonNullable<PanelState['task']>, taskId: string): string {
  for (const message of task.messages) {
    if (message.kind !== 'tool') continue;
    const started = message.subagents?.find((child) => child.taskId === taskId);
    if (started) return `Sub-agent ${started.index + 1}${started.name !== undefined ? ` · ${started.name}` : ''}: ${started.prompt.split('\n')[0]}`;
  }
  return `Sub-agent ${taskId}`;
}

/** Lines of the task's log that could not be read: said once, above the chat, which shows everything else. */
function LogProblems({ problems }: { problems: readonly string[] }) {
  return (
    <div className="log-problems" role="status">
      <Codicon name="warning" />
      <div>
        <strong>Part of this task's log could not be read.</strong> The chat shows everything else.
        <ul>
          {problems.slice(0, 5).map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
        {problems.length > 5 && <span className="muted small">…and {problems.length - 5} more.</span>}
      </div>
    </div>
  );
}

function Welcome({ panel, onOpenTask, onOpenSettings }: { panel: PanelState; onOpenTask: (taskId: string) => void; onOpenSettings: () => void }) {
  const recent = [...panel.history].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, 3);
  const needsSetup = (panel.settings.missing?.length ?? 0) > 0;
  return (
    <div className="welcome">
      <h2>What should Smith do?</h2>
      <p className="muted">Describe a task below. Smith reads your workspace, proposes edits and asks before anything risky.</p>
      {needsSetup && (
        <section className="setup-callout" aria-labelledby="setup-callout-title">
          <h3 id="setup-callout-title">Set up a model provider</h3>
          <p>
            Smith needs an AI model to work: choose a provider (Anthropic, OpenAI, Google Gemini, or an OpenAI-compatible server such as Ollama or LM Studio)
            and enter its API key or address. You can type your task first; it starts once the setup is saved.
          </p>
          {panel.pendingTask !== undefined && (
            <p>
              Waiting for the setup: <q className="pending-task">{panel.pendingTask}</q> <ReturnPendingTask />
            </p>
          )}
          <button type="button" className="primary-button" onClick={onOpenSettings}>
            <Codicon name="gear" /> Set up provider
          </button>
        </section>
      )}
      {recent.length > 0 && (
        <div className="recent">
          <h3 className="muted small">Recent</h3>
          {recent.map((item) => (
            <button
              key={item.taskId}
              type="button"
              className="link-button recent-task"
              onClick={() => onOpenTask(item.taskId)}
              aria-label={`Open task: ${item.task}`}
            >
              {item.task}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
