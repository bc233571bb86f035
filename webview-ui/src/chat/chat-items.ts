import type { PendingApproval, PendingQuestion, TaskView } from '../../../src/shared/protocol.js';
import { isTool } from '../../../src/shared/tool-catalogue.js';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import type { StreamingView } from '../state/panel-reducer.js';

/** One row of the chat list: a logged message, or something transient the host reports beside the log. */
export type ChatItem =
  | {
      readonly type: 'message';
      readonly key: string;
      readonly message: UiMessage;
      /** Live output while the command runs. */
      readonly live?: string;
      /** The approval this call waits on, as the engine logged it. */
      readonly approval?: PendingApproval;
      /** Set on the question card the model is waiting on. */
      readonly pendingQuestion?: PendingQuestion;
      /** Set on the error the task stopped at. */
      readonly retryable: boolean;
      readonly taskId: string;
      /** Smith is not working on the task: checkpoints and edits are offered. */
      readonly idle: boolean;
      /** The task's last message (a retry there is the one being waited for). */
      readonly latest: boolean;
    }
  | { readonly type: 'question'; readonly key: string; readonly question: PendingQuestion }
  | { readonly type: 'failure'; readonly key: string; readonly text: string }
  /** The task's run was cut off (a reload): offers Resume. */
  | { readonly type: 'interrupted'; readonly key: string }
  | { readonly type: 'streaming'; readonly key: string; readonly text: string; readonly reasoning: string };

const BUSY: ReadonlySet<TaskView['status']> = new Set(['running', 'awaiting_approval', 'awaiting_answer']);

/** Builds the rows for a task: its messages plus the pending question, failure and streaming text. */
export function buildChatItems(
  task: Pick<TaskView, 'id' | 'messages' | 'status' | 'pendingQuestion' | 'pendingApproval' | 'error'>,
  streaming: StreamingView | undefined,
  liveOutput: Readonly<Record<string, string>>,
): ChatItem[] {
  const messages = task.messages;
  const questionIndex = task.pendingQuestion === undefined ? -1 : lastIndex(messages, (m) => m.kind === 'tool' && isTool(m.tool, 'ask_followup_question'));
  const errorIndex = task.status === 'failed' ? lastIndex(messages, (m) => m.kind === 'error') : -1;
  // A sub-agent's call is asked in the task's approval bar, but its call id is its own task's, not one of these messages'.
  const approval: PendingApproval | undefined = task.pendingApproval?.subagent === undefined ? task.pendingApproval : undefined;
  const idle = !BUSY.has(task.status);

  const items: ChatItem[] = messages.map((message, index) => ({
    type: 'message',
    key: message.id,
    message,
    live: message.kind === 'tool' ? liveOutput[message.callId] : undefined,
    approval: message.kind === 'tool' && approval?.callId === message.callId ? approval : undefined,
    pendingQuestion: index === questionIndex ? task.pendingQuestion : undefined,
    retryable: index === errorIndex,
    taskId: task.id,
    idle,
    latest: index === messages.length - 1,
  }));
  if (task.pendingQuestion !== undefined && questionIndex === -1) {
    items.push({ type: 'question', key: 'pending-question', question: task.pendingQuestion });
  }
  if (task.status === 'failed' && errorIndex === -1) {
    items.push({ type: 'failure', key: 'failure', text: task.error ?? 'The task failed.' });
  }
  if (task.status === 'interrupted') items.push({ type: 'interrupted', key: 'interrupted' });
  if (streaming !== undefined && streaming.taskId === task.id && (streaming.text !== '' || streaming.reasoning !== '')) {
    items.push({ type: 'streaming', key: 'streaming', text: streaming.text, reasoning: streaming.reasoning });
  }
  return items;
}

function lastIndex<T>(list: readonly T[], test: (item: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i]!)) return i;
  return -1;
}
