import type { TaskUpdate } from '../core/task/task.js';
import type { AssistantBlock } from '../core/parse/types.js';
import type { Style } from './style.js';
import type { ToolFacts } from '../shared/tool-details.js';
import { commandEndText, findingsLine } from '../shared/tool-result-summary.js';
import { toolSubject } from '../shared/tool-subject.js';
import { hookRunLine, isNoteworthyHookRun } from '../shared/hook-runs.js';
import { settledTerminalLength } from './terminal-safe-text.js';
import { parseTodoList } from '../shared/todo-items.js';
import { TODO_TOOL } from '../core/context/todo-list.js';

/**
 * Prints a task's progress for people, on stderr: streamed answer text, one line per tool call,
 * results. Everything the model or a tool wrote passes through style.text().
 */
export class HumanReporter {
  /** Characters of the current response's text blocks already printed, per block index. */
  private printed = new Map<number, number>();
  private announcedTool = false;
  /** use_subagents calls of this task, whose progress lines are always shown. */
  private readonly subagentCalls = new Set<string>();
  /** update_todo_list calls waiting for their result: the list the model sent. */
  private readonly todoCalls = new Map<string, string>();

  constructor(
    private readonly err: NodeJS.WritableStream,
    private readonly style: Style,
    private readonly level: 'quiet' | 'normal' | 'verbose',
    /** The todo list is for a person reading the run; beside JSON output it is left out. */
    private readonly showTodos = true,
  ) {}

  handle(update: TaskUpdate): void {
    if (this.level === 'quiet') return;
    if (update.type === 'delta') {
      if (update.delta.kind === 'blocks') this.printBlocks(update.delta.blocks);
      else if (update.delta.kind === 'reasoning' && this.level === 'verbose') this.err.write(this.style.dim(this.style.text(update.delta.text)));
      return;
    }
    if (update.type === 'progress') {
      // Sub-agents' progress is a few lines each, shown indented under their call; a command's output only with --verbose.
      if (this.subagentCalls.has(update.callId)) this.err.write(this.style.dim(`  ${this.style.text(update.text)}`));
      else if (this.level === 'verbose') this.err.write(this.style.dim(this.style.text(update.text)));
      return;
    }
    if (update.type === 'retry') {
      const seconds = Math.max(1, Math.round(update.delayMs / 1000));
      this.err.write(
        `${this.style.yellow(`! ${this.style.text(update.reason)} — retrying in ${seconds} s (attempt ${update.attempt}/${update.maxRetries})`)}\n`,
      );
      return;
    }
    const event = update.event;
    switch (event.type) {
      case 'model_response':
        // What streaming held back (an unfinished escape sequence, a possible secret's start) is settled now.
        this.printBlocks(event.blocks, true);
        break;
      case 'request_started':
        this.printed = new Map();
        this.announcedTool = false;
        break;
      case 'tool_requested': {
        if (event.tool === 'use_subagents') this.subagentCalls.add(event.callId);
        if (event.tool === TODO_TOOL) this.todoCalls.set(event.callId, event.params.todos ?? '');
        const subject = toolSubject(event.tool, event.params)?.text ?? '';
        if (event.tool !== 'attempt_completion') this.err.write(`\n${this.style.cyan(`▸ ${this.style.text(event.tool)}`)} ${this.style.text(subject)}\n`);
        break;
      }
      case 'tool_result': {
        const facts = resultFacts(event.details);
        if (facts) this.err.write(`${this.style.dim(`  ${this.style.text(facts)}`)}\n`);
        const todos = this.todoCalls.get(event.callId);
        if (todos !== undefined && this.showTodos) this.printTodos(todos);
        if (this.level === 'verbose') this.err.write(`${this.style.dim(indent(this.style.text(event.output)))}\n`);
        break;
      }
      case 'tool_error':
        this.err.write(
          `${this.style.red(`✗ ${this.style.text(event.tool)}: ${firstLines(this.style.text(event.error), this.level === 'verbose' ? 40 : 6)}`)}\n`,
        );
        break;
      case 'approval_answered':
        if (!event.approved) this.err.write(`${this.style.yellow(`✗ rejected${event.feedback ? `: ${this.style.text(event.feedback)}` : ''}`)}\n`);
        break;
      case 'response_interrupted':
        this.err.write(`\n${this.style.yellow('! the response was interrupted; nothing from it was run')}\n`);
        break;
      case 'no_tool_used':
        this.err.write(`${this.style.yellow('! the model did not use a tool; reminding it')}\n`);
        break;
      case 'hooks_ran':
        for (const run of event.runs) {
          if (isNoteworthyHookRun(run) || this.level === 'verbose')
            this.err.write(`${this.style.dim(`  ${this.style.text(hookRunLine(event.event, event.tool, run))}`)}\n`);
        }
        break;
      case 'task_resumed':
        this.err.write(`${this.style.dim('Resuming the task from its log.')}\n`);
        break;
      case 'error':
        this.err.write(`${this.style.red(`Error: ${this.style.text(event.message)}`)}\n`);
        break;
      default:
        break;
    }
  }

  /** The model's updated todo list, compactly: one line per item, its status as a box. */
  private printTodos(markdown: string): void {
    const items = parseTodoList(markdown);
    if (!items) return;
    const done = items.filter((item) => item.status === 'completed').length;
    const box = { completed: '[x]', in_progress: '[-]', pending: '[ ]' } as const;
    const lines = items.map((item) => `  ${box[item.status]} ${this.style.text(item.text)}`);
    this.err.write(
      `${this.style.dim(`  Todo (${done}/${items.length} done)`)}\n${lines.map((line) => (line.startsWith('  [x]') ? this.style.dim(line) : line)).join('\n')}\n`,
    );
  }

  private printBlocks(blocks: readonly AssistantBlock[], final = false): void {
    blocks.forEach((block, index) => {
      if (block.kind === 'text') this.printText(index, block.text, final, (text) => text);
      else if (block.kind === 'thinking' && this.level === 'verbose') this.printText(index, block.text, final, (text) => this.style.dim(text));
      else if (block.kind === 'tool' && !this.announcedTool) this.announcedTool = true;
    });
  }

  /** Prints the part of a growing block not printed yet; leading blank space of a text block is skipped. */
  private printText(index: number, text: string, final: boolean, paint: (text: string) => string): void {
    let done = this.printed.get(index) ?? 0;
    if (done === 0) done = text.length - text.trimStart().length;
    const end = final ? text.length : settledTerminalLength(text, done);
    if (end <= done) return;
    const shown = this.style.text(text.slice(done, end));
    if (shown !== '') this.err.write(paint(shown));
    this.printed.set(index, end);
  }
}

/** One line from a result's facts: lines changed, how a command ended, what a read or search found; empty for results logged without them. */
export function resultFacts(details: ToolFacts | undefined): string {
  if (details === undefined) return '';
  const parts: string[] = [];
  if (details.edit) parts.push(`${details.edit.created ? 'created, ' : ''}+${details.edit.added} −${details.edit.removed}`);
  if (details.command) parts.push(`${commandEndText(details.command.end)}${details.command.truncated ? ' (output cut in the middle)' : ''}`);
  const findings = findingsLine(details);
  if (findings) parts.push(findings);
  return parts.join(', ');
}

function indent(text: string): string {
  return firstLines(text, 20)
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

function firstLines(text: string, count: number): string {
  const lines = text.split('\n');
  return lines.length <= count ? text : `${lines.slice(0, count).join('\n')}\n… (${lines.length - count} more lines)`;
}
