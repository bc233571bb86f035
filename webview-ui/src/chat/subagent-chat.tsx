import { useMemo } from 'react';
import type { PanelState } from '../../../src/shared/protocol.js';
import { useActions } from '../common/actions-context.js';
import { Codicon } from '../common/codicon.js';
import { buildChatItems } from './chat-items.js';
import { MessageList } from './message-list.js';

type SubagentChat = NonNullable<PanelState['subagentChat']>;

/**
 * One sub-agent's own chat, shown in place of the task's: what it was asked, every call it made
 * and how it ended. Read-only (its calls are asked in the task's approval bar); Back returns.
 */
export function SubagentChatView({ chat, title }: { chat: SubagentChat; title: string }) {
  const { request, reportError } = useActions();
  // Its rows offer no actions: it is never idle from the panel's side (no restore, no edit, no retry).
  const items = useMemo(() => buildChatItems({ id: chat.taskId, messages: chat.messages, status: 'running' }, undefined, {}), [chat]);
  return (
    <section className="subagent-chat" aria-label={`Chat of ${title}`}>
      <div className="subagent-chat-header">
        <button type="button" className="link-button" onClick={() => request({ type: 'closeSubagentChat' }).catch(reportError)}>
          <Codicon name="arrow-left" /> Back to the task
        </button>
        <h2 className="subagent-chat-title">{title}</h2>
        <span className={`subagent-status muted small status-${chat.status}`}>{chat.status}</span>
      </div>
      <MessageList items={items} taskId={chat.taskId} />
    </section>
  );
}
