import { usageTotals } from '../core/task/ui-projection.js';
import { Task, type TaskOptions } from '../core/task/task.js';
import type { PlanAct } from '../shared/plan-act.js';
import type { McpHub } from '../core/mcp/mcp-hub.js';
import { chainEvents } from '../core/task/task-chain.js';
import type { HumanReporter } from './human-reporter.js';
import { runInteractive } from './interactive-run.js';
import type { LineSource } from './line-source.js';
import { printOutcome } from './outcome-printer.js';
import { expandForCli, PromptBlockedError } from './cli-mentions.js';
import { replCompleter } from './repl-completion.js';
import { SlashCommands, isSlashCommand, type CliSession } from './repl-commands.js';
import { onStopSignals, signalExitCode } from './stop-signals.js';
import type { Style } from './style.js';

/**
 * The interactive loop: a prompt, slash commands (at every prompt), and tasks that continue across
 * messages. Returns the exit code: 0, or 1 when SIGTERM or SIGHUP ended it.
 */
export async function runRepl(
  options: TaskOptions,
  initial: { mode: PlanAct; modeSlug: string },
  lines: LineSource,
  reporter: HumanReporter,
  style: Style,
  mcp?: McpHub,
): Promise<number> {
  const err = process.stderr;
  err.write(`${style.bold('Smith')} — ${options.provider.id} ${options.provider.modelId} in ${options.cwd}\nType /help for commands.\n`);
  const session: CliSession = { task: undefined, start: initial, running: false, quit: false };
  const commands = new SlashCommands(session, options, reporter, err, style, mcp);
  lines.completer = replCompleter({
    cwd: options.cwd,
    ...(options.workspace ? { workspace: options.workspace } : {}),
    storageDir: options.storageDir,
    ...(mcp ? { mcp } : {}),
  });
  lines.commandHandler = async (line) => {
    if (!isSlashCommand(line)) return false;
    await commands.run(line);
    return true;
  };
  let lastInterrupt = 0;
  let stoppedBy: 'SIGTERM' | 'SIGHUP' | undefined;
  const offSignals = onStopSignals((signal) => {
    if (signal !== 'SIGINT') {
      // A second request to stop does not wait for the clean-up.
      if (stoppedBy) process.exit(signalExitCode(signal));
      stoppedBy = signal;
      session.quit = true;
      if (session.running) session.task?.abort();
      lines.close();
      return;
    }
    if (session.running && session.task) {
      err.write('\nStopping the current step…\n');
      session.task.abort();
      return;
    }
    if (Date.now() - lastInterrupt < 2000) {
      lines.close();
      return;
    }
    lastInterrupt = Date.now();
    err.write('\n(Press Ctrl+C again to exit, or type /exit)\n');
    lines.readline.prompt();
  }, lines);

  try {
    for (;;) {
      if (session.quit) break;
      const input = await lines.next('smith> ');
      if (input === undefined) break;
      let text = input.trim();
      if (text === '') continue;
      if (isSlashCommand(text)) {
        const action = await commands.run(text);
        if (action === 'exit') break;
        if (action === 'run' && session.task) await runTask(session.task);
        if (typeof action !== 'object') continue;
        text = action.send; // a custom command: its text goes on as the message
      }
      let mentioned: Awaited<ReturnType<typeof expandForCli>>;
      const hookSession = session.task ? session.task.messageSession() : Task.newSession(options, session.start);
      try {
        mentioned = await expandForCli(options, text, err, style, hookSession);
      } catch (error) {
        if (!(error instanceof PromptBlockedError)) throw error;
        err.write(`${style.yellow(style.text(error.message))}\n`);
        continue;
      }
      if (session.task) session.task.addUserMessage(text, mentioned);
      else {
        session.task = Task.create(options, text, { ...session.start, taskId: hookSession.sessionId!, ...(mentioned ? { mentioned } : {}) });
        session.task.onUpdate((update) => reporter.handle(update));
      }
      await runTask(session.task);
    }
  } finally {
    offSignals();
    lines.commandHandler = undefined;
    lines.completer = undefined;
  }
  return stoppedBy ? 1 : 0;

  async function runTask(task: Task): Promise<void> {
    const finished = await runInteractive(task, options, session, { lines, commands, err, style }, (next) =>
      next.onUpdate((update) => reporter.handle(update)),
    );
    session.task = finished.task;
    printOutcome(finished.outcome, finished.task.id, style, usageTotals(chainEvents(finished.tasks)));
    const waiting = finished.task.queuedMessages.length;
    if (waiting > 0 && !session.quit)
      err.write(`${style.dim(`${waiting} queued message${waiting === 1 ? '' : 's'} will reach the model with your next message.`)}\n`);
  }
}
