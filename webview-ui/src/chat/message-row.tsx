import { memo } from 'react';
import type { PendingApproval, PendingQuestion } from '../../../src/shared/protocol.js';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { isTool } from '../../../src/shared/tool-catalogue.js';
import { Codicon } from '../common/codicon.js';
import { MarkdownView } from '../markdown/markdown-view.js';
import type { ChatItem } from './chat-items.js';
import { CheckpointMarker } from './checkpoint-marker.js';
import { CompletionCard } from './completion-card.js';
import { ErrorCard } from './error-card.js';
import { InterruptedCard } from './interrupted-card.js';
import { QuestionCard } from './question-card.js';
import { RetryNotice } from './retry-notice.js';
import { ToolCard } from './tool-card.js';
import { UserMessage } from './user-message.js';

/** Renders one chat row of any type. */
export function ChatItemView({ item }: { item: ChatItem }) {
  switch (item.type) {
    case 'message':
      return (
        <MessageRow
          message={item.message}
          live={item.live}
          approval={item.approval}
          pendingQuestion={item.pendingQuestion}
          retryable={item.retryable}
          taskId={item.taskId}
          idle={item.idle}
          latest={item.latest}
        />
      );
    case 'question':
      return <QuestionCard question={item.question.question} options={item.question.options} pending />;
    case 'failure':
      return <ErrorCard text={item.text} retryable />;
    case 'interrupted':
      return <InterruptedCard />;
    case 'streaming':
      return <AssistantMessage text={item.text} reasoning={item.reasoning} streaming />;
  }
}

interface MessageRowProps {
  message: UiMessage;
  live?: string;
  approval?: PendingApproval;
  pendingQuestion?: PendingQuestion;
  retryable: boolean;
  taskId: string;
  idle: boolean;
  latest: boolean;
}

// Memoised on the message object: the reducer keeps unchanged messages identical, so a streaming
// tail or a new message re-renders only the rows that changed.
const MessageRow = memo(function MessageRow({ message, live, approval, pendingQuestion, retryable, taskId, idle, latest }: MessageRowProps) {
  switch (message.kind) {
    case 'task':
      return (
        <UserMessage
          label="Task"
          icon="tasklist"
          text={message.text}
          className="msg-task"
          seq={message.seq}
          taskId={taskId}
          idle={idle}
          attached={message.attached}
        />
      );
    case 'user':
      return (
        <UserMessage
          label="You"
          icon="account"
          text={message.text}
          className="msg-user"
          seq={message.seq}
          taskId={taskId}
          idle={idle}
          attached={message.attached}
        />
      );
    case 'assistant':
      return <AssistantMessage text={message.text} reasoning={message.reasoning} streaming={false} />;
    case 'tool':
      if (isTool(message.tool, 'ask_followup_question')) {
        const options = pendingQuestion?.options ?? message.details?.question?.options ?? [];
        return <QuestionCard question={pendingQuestion?.question ?? message.params.question ?? ''} options={options} pending={pendingQuestion !== undefined} />;
      }
      return <ToolCard message={message} live={live} approval={approval} taskId={taskId} />;
    case 'notice':
      return (
        <div className="notice">
          <Codicon name="info" />
          <span>{message.text}</span>
          {message.detail !== undefined && (
            <details className="notice-detail">
              <summary>Show the summary</summary>
              <pre>{message.detail}</pre>
            </details>
          )}
        </div>
      );
    case 'retry':
      return <RetryNotice retry={message} waiting={latest && !idle} />;
    case 'error':
      return <ErrorCard text={message.text} retryable={retryable} />;
    case 'completion':
      return <CompletionCard result={message.result} command={message.command} />;
    case 'checkpoint':
      return <CheckpointMarker checkpoint={message} taskId={taskId} idle={idle} />;
  }
});

function AssistantMessage({ text, reasoning, streaming }: { text: string; reasoning: string; streaming: boolean }) {
  return (
    <div className={streaming ? 'msg msg-assistant streaming' : 'msg msg-assistant'} aria-busy={streaming || undefined}>
      {reasoning !== '' && (
        <details className="reasoning">
          <summary>Reasoning</summary>
          <div className="reasoning-text">{reasoning}</div>
        </details>
      )}
      {text !== '' && <MarkdownView text={text} />}
    </div>
  );
}
