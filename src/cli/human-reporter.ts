import type { TaskUpdate } from '../core/task/task.js';
import type { AssistantBlock } from '../core/parse/types.js';
import type { Style } from './style.js';

/** Prints a task's progress for people, on stderr: streamed answer text, one line per tool call, results. */
export class HumanReporter {
  /** Characters of the current response's text blocks already printed, per block index. */
  private printed = new Map<number, number>();
  private announcedTool = false;

  constructor(
    private readonly err: NodeJS.WritableStream,
    private readonly style: Style,
    private readonly level: 'quiet' | 'normal' | 'verbose',
  ) {}

  handle(update: TaskUpdate): void {
    if (this.level === 'quiet') return;
    if (update.type === 'delta') {
      if (update.delta.kind === 'blocks') this.printBlocks(update.delta.blocks);
      else if (update.delta.kind === 'reasoning' && this.level === 'verbose') this.err.write(this.style.dim(update.delta.text));
      return;
    }
    if (update.type === 'progress') {
      if (this.level === 'verbose') this.err.write(this.style.dim(update.text));
      return;
    }
    if (update.type === 'retry') {
      const seconds = Math.max(1, Math.round(update.delayMs / 1000));
      this.err.write(`${this.style.yellow(`! ${update.reason} — retrying in ${seconds} s (attempt ${update.attempt}/${update.maxRetries})`)}\n`);
      return;
    }
    const event = update.event;
    switch (event.type) {
      case 'request_started':
        this.printed = new Map();
        this.announcedTool = false;
        break;
      case 'tool_requested': {
        const mcp = event.params.server_name ? `${event.params.server_name}/${event.params.tool_name ?? event.params.uri ?? ''}` : '';
        const target = event.params.path ?? event.params.command ?? mcp;
        if (event.tool !== 'attempt_completion') this.err.write(`\n${this.style.cyan(`▸ ${event.tool}`)} ${target}\n`);
        break;
      }
      case 'tool_result':
        if (this.level === 'verbose') this.err.write(`${this.style.dim(indent(event.output))}\n`);
        break;
      case 'tool_error':
        this.err.write(`${this.style.red(`✗ ${event.tool}: ${firstLines(event.error, this.level === 'verbose' ? 40 : 6)}`)}\n`);
        break;
      case 'approval_answered':
        if (!event.approved) this.err.write(`${this.style.yellow(`✗ rejected${event.feedback ? `: ${event.feedback}` : ''}`)}\n`);
        break;
      case 'response_interrupted':
        this.err.write(`\n${this.style.yellow('! the response was interrupted; nothing from it was run')}\n`);
        break;
      case 'no_tool_used':
        this.err.write(`${this.style.yellow('! the model did not use a tool; reminding it')}\n`);
        break;
      case 'task_resumed':
        this.err.write(`${this.style.dim('Resuming the task from its log.')}\n`);
        break;
      case 'error':
        this.err.write(`${this.style.red(`Error: ${event.message}`)}\n`);
        break;
      default:
        break;
    }
  }

  private printBlocks(blocks: readonly AssistantBlock[]): void {
    blocks.forEach((block, index) => {
      if (block.kind === 'text') {
        const done = this.printed.get(index) ?? 0;
        const text = done === 0 ? block.text.trimStart() : block.text;
        const offset = done === 0 ? block.text.length - text.length : 0;
        if (block.text.length > done + offset) {
          this.err.write(block.text.slice(done + offset));
          this.printed.set(index, block.text.length);
        }
      } else if (block.kind === 'thinking' && this.level === 'verbose') {
        const done = this.printed.get(index) ?? 0;
        if (block.text.length > done) {
          this.err.write(this.style.dim(block.text.slice(done)));
          this.printed.set(index, block.text.length);
        }
      } else if (block.kind === 'tool' && !this.announcedTool) {
        this.announcedTool = true;
      }
    });
  }
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
