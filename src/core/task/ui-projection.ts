import type { UiMessage, UiToolMessage } from '../../shared/ui-messages.js';
import type { TaskEvent } from './events.js';
import { serializeBlocks } from '../parse/serialize-blocks.js';

export { usageTotals } from './usage-totals.js';

/** Derives the chat's message list from the log; the same events always give the same list. */
export function uiProjection(events: readonly TaskEvent[]): UiMessage[] {
  const messages: UiMessage[] = [];
  const toolIndex = new Map<string, number>();
  const updateTool = (callId: string, change: Partial<UiToolMessage>) => {
    const index = toolIndex.get(callId);
    if (index === undefined) return;
    messages[index] = { ...(messages[index] as UiToolMessage), ...change };
  };

  for (const event of events) {
    const id = `e${event.seq}`;
    switch (event.type) {
      case 'task_started':
        messages.push({ kind: 'task', id, text: event.task, ts: event.ts });
        break;
      case 'user_message':
        messages.push({ kind: 'user', id, text: event.text, ts: event.ts });
        break;
      case 'model_response': {
        const text = serializeBlocks(event.blocks.filter((b) => b.kind === 'text')).trim();
        const thinking = event.blocks.filter((b) => b.kind === 'thinking').map((b) => b.text);
        const reasoning = [event.reasoning, ...thinking].filter(Boolean).join('\n\n');
        if (text || reasoning) messages.push({ kind: 'assistant', id, text, reasoning, ts: event.ts });
        break;
      }
      case 'tool_requested':
        toolIndex.set(event.callId, messages.length);
        messages.push({ kind: 'tool', id, callId: event.callId, tool: event.tool, params: event.params, status: 'running', ts: event.ts });
        break;
      case 'approval_asked':
        updateTool(event.callId, { status: 'awaiting_approval' });
        break;
      case 'approval_answered':
        updateTool(event.callId, {
          status: event.approved ? 'running' : 'rejected',
          ...(event.feedback ? { feedback: event.feedback } : {}),
        });
        break;
      case 'tool_result': {
        // The base64 stays in the log: the panel gets a marker, not megabytes of snapshot.
        const count = event.images?.length ?? 0;
        const marker = count === 0 ? '' : `\n\n[${count === 1 ? 'image' : `${count} images`} sent to the model]`;
        updateTool(event.callId, { status: 'done', output: event.output + marker, ...(event.details ? { details: event.details } : {}) });
        break;
      }
      case 'tool_error':
        if (toolIndex.has(event.callId)) updateTool(event.callId, { status: 'failed', error: event.error, ...(event.details ? { details: event.details } : {}) });
        else messages.push({ kind: 'error', id, text: event.error, ts: event.ts });
        break;
      case 'no_tool_used':
        messages.push({ kind: 'notice', id, text: 'The model answered without using a tool; reminded it to use one.', ts: event.ts });
        break;
      case 'task_resumed':
        for (const [callId, index] of toolIndex) {
          const tool = messages[index] as UiToolMessage;
          if (tool.status === 'running' || tool.status === 'awaiting_approval') updateTool(callId, { status: 'interrupted' });
        }
        messages.push({ kind: 'notice', id, text: 'Task resumed.', ts: event.ts });
        break;
      case 'error':
        messages.push({ kind: 'error', id, text: event.message, ts: event.ts });
        break;
      case 'task_completed':
        for (const [callId, index] of toolIndex) {
          if ((messages[index] as UiToolMessage).status === 'running') updateTool(callId, { status: 'done' });
        }
        messages.push({ kind: 'completion', id, result: event.result, ...(event.command ? { command: event.command } : {}), ts: event.ts });
        break;
      case 'task_aborted':
        messages.push({ kind: 'notice', id, text: `Task stopped: ${event.reason}`, ts: event.ts });
        break;
      case 'mode_switched':
        messages.push({ kind: 'notice', id, text: `Switched to ${event.mode === 'plan' ? 'Plan' : 'Act'} mode.`, ts: event.ts });
        break;
      case 'skill_switched':
        messages.push({ kind: 'notice', id, text: `Switched to the ${event.skill} skill.`, ts: event.ts });
        break;
      case 'history_condensed':
        messages.push({ kind: 'notice', id, text: 'Older history was condensed into a summary.', ts: event.ts });
        break;
      case 'condense_failed':
        messages.push({ kind: 'notice', id, text: `Condensing the history failed: ${event.error}`, ts: event.ts });
        break;
      case 'response_interrupted':
        if (event.partialText.trim()) messages.push({ kind: 'assistant', id, text: event.partialText.trim(), reasoning: '', ts: event.ts });
        messages.push({ kind: 'notice', id: `${id}-n`, text: `The response was interrupted (${event.error}); nothing from it was run.`, ts: event.ts });
        break;
      case 'request_retried':
        messages.push({ kind: 'retry', id, attempt: event.attempt, maxRetries: event.maxRetries, delayMs: event.delayMs, reason: event.reason, ts: event.ts });
        break;
      case 'history_truncated':
        messages.push({ kind: 'notice', id, text: 'Older messages were removed from the model\'s context to fit its window (they stay in the log).', ts: event.ts });
        break;
      case 'new_task_requested':
        messages.push({ kind: 'notice', id, text: 'The model asked to continue in a new task.', ts: event.ts });
        break;
      case 'request_started':
        break;
    }
  }
  return messages;
}
