import { listStoredTasks } from '../core/task/task-log.js';
import { usageTotals } from '../core/task/ui-projection.js';
import { Task, type TaskOptions } from '../core/task/task.js';
import type { Mode } from '../core/skills/skill.js';
import type { McpHub } from '../core/mcp/mcp-hub.js';
import { MCP_REPL_HELP, runMcpReplCommand } from './mcp-repl-command.js';
import { chainEvents, runTaskChain } from './task-chain.js';
import type { HumanReporter } from './human-reporter.js';
import type { LineSource } from './line-source.js';
import { printOutcome } from './outcome-printer.js';
import type { Style } from './style.js';

const HELP = `Type a task to start it; after it ends, type more to continue the same task.
Commands:
  /help      this help
  /clear     start a new task with the next message
  /history   list stored tasks
  /events    print the current task's event log (JSONL)
  /condense  summarise the task so far; the summary replaces older history
  /mode      show or set the mode: /mode plan | /mode act
  /skill     show or set the skill: /skill architect
  ${MCP_REPL_HELP}
  /exit      quit
Ctrl+C stops the running step; press it again at the prompt to quit.`;

/** The interactive loop: a prompt, slash commands, and tasks that continue across messages. */
export async function runRepl(
  options: TaskOptions,
  initial: { mode: Mode; skill: string },
  lines: LineSource,
  reporter: HumanReporter,
  style: Style,
  mcp?: McpHub,
): Promise<number> {
  let start = initial;
  const err = process.stderr;
  err.write(`${style.bold('Smith')} — ${options.provider.id} ${options.provider.modelId} in ${options.cwd}\nType /help for commands.\n`);
  let task: Task | undefined;
  let running = false;
  let lastInterrupt = 0;
  lines.readline.on('SIGINT', () => {
    if (running && task) {
      err.write('\nStopping the current step…\n');
      task.abort();
      return;
    }
    if (Date.now() - lastInterrupt < 2000) {
      lines.close();
      return;
    }
    lastInterrupt = Date.now();
    err.write('\n(Press Ctrl+C again to exit, or type /exit)\n');
    lines.readline.prompt();
  });

  for (;;) {
    const input = await lines.next('smith> ');
    if (input === undefined) return 0;
    const text = input.trim();
    if (text === '') continue;
    if (text.startsWith('/')) {
      const [command] = text.split(/\s+/);
      switch (command) {
        case '/exit':
        case '/quit':
          return 0;
        case '/help':
          err.write(`${HELP}\n`);
          break;
        case '/clear':
          task = undefined;
          err.write('Started fresh: the next message begins a new task.\n');
          break;
        case '/history':
          for (const item of listStoredTasks(options.storageDir, (warning) => err.write(`${style.yellow(warning)}\n`)).slice(0, 20)) {
            err.write(`${item.taskId}  ${item.status.padEnd(11)}  ${item.task.split('\n')[0]!.slice(0, 70)}\n`);
          }
          break;
        case '/events':
          if (!task) err.write('No current task.\n');
          else for (const event of task.log.events) err.write(`${JSON.stringify(event)}\n`);
          break;
        case '/condense':
          if (!task) {
            err.write('No current task.\n');
            break;
          }
          try {
            await task.condense();
            err.write('The history was condensed into a summary.\n');
          } catch (error) {
            err.write(`Could not condense: ${(error as Error).message}\n`);
          }
          break;
        case '/mode': {
          const wanted = text.split(/\s+/)[1];
          if (wanted !== undefined && wanted !== 'plan' && wanted !== 'act') {
            err.write('Usage: /mode plan | /mode act\n');
            break;
          }
          if (wanted) {
            start = { ...start, mode: wanted };
            task?.switchMode(wanted);
          }
          err.write(`Mode: ${task?.state.mode ?? start.mode}\n`);
          break;
        }
        case '/skill': {
          const wanted = text.split(/\s+/)[1];
          const known = (options.skills ?? []).map((s) => s.slug);
          if (wanted && !known.includes(wanted)) {
            err.write(`Unknown skill "${wanted}". Available: ${known.join(', ')}\n`);
            break;
          }
          if (wanted) {
            start = { ...start, skill: wanted };
            task?.switchSkill(wanted);
          }
          err.write(`Skill: ${task?.state.skill ?? start.skill} (available: ${known.join(', ')})\n`);
          break;
        }
        case '/mcp':
          err.write(mcp ? `${await runMcpReplCommand(text.split(/\s+/).slice(1), mcp, style)}\n` : 'MCP is not available in this session.\n');
          break;
        default:
          err.write(`Unknown command ${command}. Type /help.\n`);
      }
      continue;
    }
    if (task) task.addUserMessage(text);
    else {
      task = Task.create(options, text, start);
      task.onUpdate((update) => reporter.handle(update));
    }
    running = true;
    try {
      const finished = await runTaskChain(task, options, (next) => next.onUpdate((update) => reporter.handle(update)));
      task = finished.task;
      printOutcome(finished.outcome, task.id, style, usageTotals(chainEvents(finished.tasks)));
    } finally {
      running = false;
    }
  }
}
