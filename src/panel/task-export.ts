import type { TaskEvent } from '../core/log/events.js';
import { uiProjection, usageTotals } from '../core/task/ui-projection.js';
import { retryText } from '../shared/retry-text.js';
import type { UiMessage } from '../shared/ui-messages.js';

/** A task's conversation as a Markdown document, for sharing or filing with a bug report. */
export function taskMarkdown(events: readonly TaskEvent[]): string {
  const started = events.find((e) => e.type === 'task_started');
  const usage = usageTotals(events);
  const header = [`# Smith task${started?.type === 'task_started' ? ` ${started.taskId}` : ''}`, ''];
  if (started?.type === 'task_started') {
    header.push(`- Started: ${new Date(started.ts).toISOString()}`, `- Model: ${started.provider} / ${started.model}`);
  }
  header.push(`- Tokens: ${usage.inputTokens} in, ${usage.outputTokens} out`);
  const body = uiProjection(events).map(section);
  return `${[header.join('\n'), ...body].join('\n\n---\n\n')}\n`;
}

function section(message: UiMessage): string {
  switch (message.kind) {
    case 'task':
      return `## Task\n\n${message.text}`;
    case 'user':
      return `## User\n\n${message.text}`;
    case 'assistant':
      return ['## Smith', message.reasoning ? quote(`Reasoning: ${message.reasoning}`) : '', message.text].filter(Boolean).join('\n\n');
    case 'tool': {
      const params = Object.entries(message.params).map(([name, value]) => `**${name}:**\n\n${fence(value)}`);
      const result = message.error ? `**Error:**\n\n${fence(message.error)}` : message.output ? `**Result:**\n\n${fence(message.output)}` : '';
      const feedback = message.feedback ? `**User feedback:** ${message.feedback}` : '';
      return [`## Tool: ${message.tool} (${message.status})`, ...params, result, feedback].filter(Boolean).join('\n\n');
    }
    case 'completion':
      return [`## Completed\n\n${message.result}`, message.command ? `Command to see the result:\n\n${fence(message.command)}` : '']
        .filter(Boolean)
        .join('\n\n');
    case 'error':
      return `## Error\n\n${message.text}`;
    case 'notice':
      return `_${message.text}_`;
    case 'retry':
      return `_${retryText(message)}_`;
    case 'checkpoint':
      return `_Checkpoint ${message.checkpointId}: ${message.changedCount} file${message.changedCount === 1 ? '' : 's'} changed._`;
  }
}

/** A fenced block long enough that the text's own fences cannot close it. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}\n${text}\n${marks}`;
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}
