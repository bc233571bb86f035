import type { TaskUpdate } from '../core/task/task.js';
import type { AssistantBlock } from '../core/parse/types.js';
import type { Style } from './style.js';
import type { ToolFacts } from '../shared/tool-details.js';
import { commandEndText, findingsLine } from '../shared/tool-result-summary.js';
import { toolSubject } from '../shared/tool-subject.js';
import { isTool } from '../shared/tool-catalogue.js';
import { hookRunLine, isNoteworthyHookRun } from '../shared/hook-runs.js';
import { loopNotice } from '../shared/loop-notice.js';
import { settledTerminalLength } from './terminal-safe-text.js';
import { parseTodoList } from '../shared/todo-items.js';
import { TODO_TOOL } from '../core/context/todo-list.js';

/**
 * Prints a task's progress for people, on stderr: streamed answer text, one line per tool call,
 * results. Everything the model or a tool wrote passes through style.text().
 */
export class HumanReporter {
  /** The current response's streamed text and thinking blocks, by stream index: what is not printed yet. */
  private streamed = new Map<number, StreamedBlock>();
  /** use_subagents and use_mcp_tool calls of this task, whose progress lines are always shown. */
  private readonly indentedProgressCalls = new Set<string>();
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
      const delta = update.delta;
      if (delta.kind === 'reasoning' && this.level === 'verbose') this.err.write(this.style.dim(this.style.text(delta.text)));
      else if (delta.kind === 'block_opened') {
        const kind = delta.block.kind;
        if (kind === 'text' || (kind === 'thinking' && this.level === 'verbose')) this.streamed.set(delta.index, { kind, pending: '', printedAny: false });
      } else if (delta.kind === 'block_appended' && delta.param === undefined) {
        const block = this.streamed.get(delta.index);
        if (block) this.printStreamed(block, delta.text, false);
      } else if (delta.kind === 'block_closed') {
        const block = this.streamed.get(delta.index);
        if (block) this.printStreamed(block, '', true);
      }
      return;
    }
    if (update.type === 'progress') {
      // Sub-agents' and MCP tools' progress is a few lines each, shown indented under their call; a command's output only with --verbose.
      if (this.indentedProgressCalls.has(update.callId)) this.err.write(this.style.dim(`  ${this.style.text(update.text)}`));
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
        // Streamed blocks were printed as they closed; a response that streamed none is printed whole.
        if (this.streamed.size === 0) this.printBlocks(event.blocks);
        break;
      case 'request_started':
        this.streamed = new Map();
        break;
      case 'tool_requested': {
        if (isTool(event.tool, 'use_subagents') || isTool(event.tool, 'use_mcp_tool')) this.indentedProgressCalls.add(event.callId);
        if (event.tool === TODO_TOOL) this.todoCalls.set(event.callId, event.params.todos ?? '');
        const subject = toolSubject(event.tool, event.params)?.text ?? '';
        if (!isTool(event.tool, 'attempt_completion')) this.err.write(`\n${this.style.cyan(`▸ ${this.style.text(event.tool)}`)} ${this.style.text(subject)}\n`);
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
        // A restarted response streams again from its first block.
        this.streamed = new Map();
        this.err.write(`\n${this.style.yellow('! the response was interrupted; nothing from it was run')}\n`);
        break;
      case 'no_tool_used':
        this.err.write(`${this.style.yellow('! the model did not use a tool; reminding it')}\n`);
        break;
      case 'loop_detected':
        if (event.action === 'told') this.err.write(`${this.style.yellow(`! ${loopNotice(event.tool, event.count, event.action, event.sameFailure)}`)}\n`);
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

  private printBlocks(blocks: readonly AssistantBlock[]): void {
    for (const block of blocks) {
      if (block.kind === 'text') this.printStreamed({ kind: 'text', pending: '', printedAny: false }, block.text, true);
      else if (block.kind === 'thinking' && this.level === 'verbose')
        this.printStreamed({ kind: 'thinking', pending: '', printedAny: false }, block.text, true);
    }
  }

  /**
   * Prints a block's new text: all of it once the block is over, else up to an escape sequence a
   * chunk boundary may have split. Leading blank space of a block is skipped.
   */
  private printStreamed(block: StreamedBlock, text: string, final: boolean): void {
    let pending = block.pending + text;
    if (!block.printedAny) pending = pending.trimStart();
    // An unterminated control string is held back only so far: printed, it is removed anyway.
    const end = final || pending.length > MAX_HELD ? pending.length : settledTerminalLength(pending);
    block.pending = pending.slice(end);
    if (end === 0) return;
    const shown = this.style.text(pending.slice(0, end));
    if (shown !== '') this.err.write(block.kind === 'thinking' ? this.style.dim(shown) : shown);
    block.printedAny = true;
  }
}

/** A streamed text or thinking block: the text not printed yet (an unfinished escape sequence). */
interface StreamedBlock {
  readonly kind: 'text' | 'thinking';
  pending: string;
  printedAny: boolean;
}

/** Most text held back for an escape sequence that is still arriving. */
const MAX_HELD = 4096;

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
