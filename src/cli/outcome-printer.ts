import type { TaskOutcome } from '../core/task/task.js';
import type { UiUsage } from '../shared/ui-messages.js';
import type { Style } from './style.js';
import { formatUsd } from '../shared/money.js';

/** Prints the end of a run for people: the result on stdout, the rest on stderr. */
export function printOutcome(outcome: TaskOutcome, taskId: string, style: Style, usage?: UiUsage): void {
  if (usage) process.stderr.write(`\n${style.dim(usageLine(usage))}`);
  if (outcome.status === 'completed') {
    process.stderr.write(`\n${style.green('✓ Task completed')}\n`);
    process.stdout.write(`${style.text(outcome.result)}\n`);
    if (outcome.command) process.stderr.write(`Suggested command: ${style.text(outcome.command)}\n`);
  } else if (outcome.status === 'aborted') {
    process.stderr.write(`\n${style.yellow('Task stopped.')} Resume it with: smith --resume ${taskId}\n`);
  } else if (outcome.status === 'new_task') {
    process.stderr.write(`\n${style.dim('Continuing in a new task.')}\n`);
  } else {
    process.stderr.write(`\n${style.red(`✗ Task failed: ${style.text(outcome.error)}`)}\nResume it with: smith --resume ${taskId}\n`);
  }
}

/** "Tokens: 12,345 in (2,000 cached) · 678 out · $0.0123" */
function usageLine(usage: UiUsage): string {
  const cached = usage.cacheReadTokens ? ` (${usage.cacheReadTokens.toLocaleString('en-US')} cached)` : '';
  const cost = usage.cost === undefined ? 'cost unknown' : formatUsd(usage.cost, 4);
  return `Tokens: ${usage.inputTokens.toLocaleString('en-US')} in${cached} · ${usage.outputTokens.toLocaleString('en-US')} out · ${cost}`;
}
