// `smith bisect TASK_ID --test CMD`: which step of a task made its test fail (docs/bisect.md).
import { BisectError } from '../core/bisect/bisect-steps.js';
import { type BisectReport, runBisect } from '../core/bisect/run-bisect.js';
import { DEFAULT_TEST_TIMEOUT_MS } from '../core/bisect/test-command.js';
import { checkedHosts } from './flag-checks.js';
import { defaultStorageDir } from './default-storage.js';
import { formatBisectProgress, formatBisectReport } from './bisect-report.js';
import { reportInterruptedRestores } from './restore-recovery.js';
import { onStopSignals, signalExitCode } from './stop-signals.js';
import type { SubcommandIo } from './subcommand-io.js';
import { taskIdArgument, UsageError, parseFlags } from './usage-error.js';

const BISECT_USAGE = `smith bisect TASK_ID --test COMMAND [--timeout SECONDS] [--linear] [--output human|json]
             [--no-sandbox | --sandbox-network | --sandbox-allow-host HOST …]
             [--no-link | --link-ignored] [--storage DIR]`;

const BISECT_HELP = `Usage: ${BISECT_USAGE}

Finds the step of a stored task after which COMMAND starts failing. Each checkpoint of the task
is written into a scratch copy under the storage folder (never your workspace), COMMAND runs there
(exit code 0 passes, 125 means "cannot test this one", anything else fails), and a binary search
over the checkpoints names the first failing step: its tool call, files and diff.
  --test COMMAND            the shell command that judges each checkpoint (required)
  --timeout SECONDS         each run's limit (default ${defaultTimeoutSeconds()}); a run past it is killed with
                            its processes and counts as failing
  --linear                  test every checkpoint in order instead of a binary search
  --no-sandbox              run COMMAND unconfined (by default it runs under bubblewrap, the
                            scratch copy its only writable place, without network)
  --sandbox-network         give the sandboxed COMMAND the network
  --sandbox-allow-host HOST let the sandboxed COMMAND reach this host only (repeatable)
  --no-link                 do not link the workspace's ignored entries into the copies (by
                            default, sandboxed, what checkpoints leave out by the ignore rules,
                            node_modules, .venv, build output …, is linked there read-only)
  --link-ignored            link them also when COMMAND runs unconfined, where it can write
                            into your real folders through the links
  --output json             the result as one JSON object
  --storage DIR             where task logs are kept (default: a per-user folder)
Exit codes: 0 a step was found, 1 none was (or the bisect could not run), 2 usage error.
See docs/bisect.md.`;

function defaultTimeoutSeconds(): number {
  return DEFAULT_TEST_TIMEOUT_MS / 1000;
}

/** `smith bisect …` (the arguments after the word bisect); returns the exit code. */
export async function runBisectCommand(argv: readonly string[], io: SubcommandIo): Promise<number> {
  const { values, positionals } = parse(argv);
  if (values.help) {
    io.out.write(`${BISECT_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`name one task${positionals.length > 1 ? `, not ${positionals.length}` : ''}\n${BISECT_USAGE}`);
  const taskId = taskIdArgument(positionals[0]!, 'smith bisect');
  const command = values.test?.trim();
  if (!command) throw new UsageError(`--test COMMAND is required: the command that passes before the task and fails after it\n${BISECT_USAGE}`);
  if (values.output !== 'human' && values.output !== 'json') throw new UsageError(`--output must be human or json; got "${values.output}"`);
  const timeoutMs = timeoutOf(values.timeout);
  const sandboxFlags = values['sandbox-network'] || (values['sandbox-allow-host'] ?? []).length > 0;
  if (values['no-sandbox'] && sandboxFlags) throw new UsageError('--no-sandbox excludes --sandbox-network and --sandbox-allow-host');
  if (values['no-link'] && values['link-ignored']) throw new UsageError('--no-link excludes --link-ignored');
  const allowedHosts = checkedHosts(values['sandbox-allow-host'] ?? []);
  const json = values.output === 'json';
  const storageDir = values.storage ?? defaultStorageDir();
  reportInterruptedRestores(storageDir, io.err, io.style);

  const controller = new AbortController();
  let stoppedBy: Parameters<typeof signalExitCode>[0] | undefined;
  const offSignals = onStopSignals((signal) => {
    if (stoppedBy) return;
    stoppedBy = signal;
    io.err.write('\nStopping the bisect: ending the test and removing the scratch copies…\n');
    controller.abort(new BisectError('the bisect was stopped'));
  });
  let report: BisectReport;
  try {
    report = await runBisect({
      storageDir,
      taskId,
      command,
      timeoutMs,
      mode: values.linear ? 'linear' : 'binary',
      sandbox: { enabled: !values['no-sandbox'], network: values['sandbox-network'] === true, allowedHosts },
      linkIgnored: values['no-link'] ? 'off' : values['link-ignored'] ? 'always' : 'sandboxed',
      signal: controller.signal,
      onProgress: (progress) => {
        io.err.write(`${formatBisectProgress(progress, timeoutMs, io.style)}\n`);
      },
    });
  } catch (error) {
    if (!(error instanceof BisectError) && !controller.signal.aborted) throw error;
    const message = stoppedBy ? 'The bisect was stopped; its scratch copies were removed.' : (error as Error).message;
    if (json) io.out.write(`${JSON.stringify({ outcome: stoppedBy ? 'stopped' : 'error', message })}\n`);
    io.err.write(`smith bisect: ${message}\n`);
    return stoppedBy ? signalExitCode(stoppedBy) : 1;
  } finally {
    offSignals();
  }
  io.out.write(json ? `${JSON.stringify(report)}\n` : `${formatBisectReport(report, io.style)}\n`);
  return report.outcome === 'found' ? 0 : 1;
}

/** --timeout in seconds (a positive number; fractions allowed) as milliseconds. */
function timeoutOf(raw: string | undefined): number {
  if (raw === undefined) return defaultTimeoutSeconds() * 1000;
  const seconds = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400)
    throw new UsageError(`--timeout must be a number of seconds above 0 and at most 86400; got "${raw}"`);
  return Math.round(seconds * 1000);
}

function parse(argv: readonly string[]) {
  return parseFlags(
    argv,
    {
      test: { type: 'string' },
      timeout: { type: 'string' },
      linear: { type: 'boolean' },
      'no-sandbox': { type: 'boolean' },
      'sandbox-network': { type: 'boolean' },
      'sandbox-allow-host': { type: 'string', multiple: true },
      'no-link': { type: 'boolean' },
      'link-ignored': { type: 'boolean' },
      output: { type: 'string', default: 'human' },
      storage: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    { positionals: true, usage: BISECT_USAGE },
  );
}
