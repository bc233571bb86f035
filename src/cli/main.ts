import { realpathSync } from 'node:fs';
import { createProvider } from '../core/providers/create-provider.js';
import { ProviderError } from '../core/providers/types.js';
import { APPROVE_ALL_POLICY, DEFAULT_POLICY } from '../core/task/approval-policy.js';
import { Task, type TaskOptions, type TaskOutcome } from '../core/task/task.js';
import { ToolRegistry, builtInTools } from '../core/tools/tool-registry.js';
import { USAGE, UsageError, parseCliArgs, type CliOptions } from './args.js';
import { createCliHost } from './cli-host.js';
import { defaultStorageDir } from './default-storage.js';
import { HumanReporter } from './human-reporter.js';
import { jsonSummary } from './json-summary.js';
import { LineSource } from './line-source.js';
import { providerConfigFrom } from './provider-settings.js';
import { runRepl } from './repl.js';
import { createStyle, type Style } from './style.js';
import { readStdin } from './read-stdin.js';
import { printOutcome } from './outcome-printer.js';

declare const SMITH_VERSION: string | undefined;

/** Exit codes: 0 completed, 1 failed or hit a limit, 2 usage error. */
async function main(argv: readonly string[]): Promise<number> {
  const options = parseCliArgs(argv, process.cwd());
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (options.version) {
    process.stdout.write(`${typeof SMITH_VERSION === 'string' ? SMITH_VERSION : '0.0.0-dev'}\n`);
    return 0;
  }
  let cwd: string;
  try {
    cwd = realpathSync(options.cwd);
  } catch {
    throw new UsageError(`--cwd folder does not exist: ${options.cwd}`);
  }
  const stdinIsTty = Boolean(process.stdin.isTTY);
  let taskText = options.task;
  if (!taskText && !options.resume && !stdinIsTty) taskText = (await readStdin(process.stdin)).trim();
  if (!taskText && !options.resume && !stdinIsTty) throw new UsageError('no task given (pass it as an argument or on stdin)');

  const style = createStyle(Boolean(process.stderr.isTTY) && !process.env.NO_COLOR);
  const stdinFree = stdinIsTty || Boolean(options.task) || Boolean(options.resume);
  const lines = stdinFree ? new LineSource(process.stdin, process.stderr, stdinIsTty) : undefined;
  const provider = createProvider(providerConfigFrom(options, process.env));
  const taskOptions: TaskOptions = {
    storageDir: options.storage ?? defaultStorageDir(),
    cwd,
    provider,
    host: createCliHost(lines, process.stderr, style),
    tools: new ToolRegistry(builtInTools()),
    policy: options.yes ? { ...APPROVE_ALL_POLICY, outsideWorkspace: options.allowOutsideWorkspace } : DEFAULT_POLICY,
    maxIterations: options.maxIterations,
  };
  const reporter = new HumanReporter(process.stderr, style, options.quiet ? 'quiet' : options.verbose ? 'verbose' : 'normal');

  try {
    if (!taskText && !options.resume) return await runRepl(taskOptions, lines!, reporter, style);
    const task = options.resume ? Task.resume(taskOptions, options.resume) : Task.create(taskOptions, taskText!);
    return await runOnce(task, options, reporter, style);
  } finally {
    lines?.close();
  }
}

async function runOnce(task: Task, options: CliOptions, reporter: HumanReporter, style: Style): Promise<number> {
  const started = Date.now();
  task.onUpdate((update) => reporter.handle(update));
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts++;
    if (interrupts === 1) {
      process.stderr.write('\nStopping… (press Ctrl+C again to quit at once)\n');
      task.abort();
    } else process.exit(130);
  };
  process.on('SIGINT', onInterrupt);
  let outcome: TaskOutcome;
  try {
    outcome = await task.run();
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  if (options.output === 'json') {
    process.stdout.write(`${JSON.stringify(jsonSummary(task.id, task.log.events, outcome, Date.now() - started))}\n`);
  } else {
    printOutcome(outcome, task.id, style);
  }
  return outcome.status === 'completed' ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`smith: ${error.message}\nRun smith --help for usage.\n`);
      process.exitCode = 2;
    } else if (error instanceof ProviderError) {
      process.stderr.write(`smith: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`smith: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
