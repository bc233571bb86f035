// `smith replay TASK_ID [settings]` and `smith replay --batch FILE`: see docs/replay.md.
import { readFileSync } from 'node:fs';
import { ReplayError } from '../core/replay/replay-plan.js';
import { type ReplayComparison, type ReplaySettings, replayTask } from '../core/replay/run-replay.js';
import { createProvider } from '../core/providers/create-provider.js';
import type { SecretRedactor } from '../core/secrets/secret-redactor.js';
import { isProviderId } from '../shared/providers.js';
import { reportInterruptedRestores } from './restore-recovery.js';
import { parseCliArgs } from './args.js';
import { taskIdArgument, UsageError, parseFlags } from './usage-error.js';
import { createCliHost } from './cli-host.js';
import { defaultStorageDir } from './default-storage.js';
import { providerConfigFrom } from './provider-settings.js';
import { type BatchRow, formatBatch, formatComparison } from './replay-report.js';
import { entryFlags, inPool, readReplayBatch } from './replay-batch.js';
import { onStopSignals } from './stop-signals.js';
import type { Style } from './style.js';

const REPLAY_USAGE = `smith replay TASK_ID [--model ID] [--provider NAME] [--base-url URL] [--mode NAME] [--rules FILE]
             [--max-iterations N] [--input-price USD] [--output-price USD] [--output human|json] [--storage DIR]
             [--run-commands-unconfined]
smith replay --batch FILE [--concurrency N] [the settings above, as defaults for every run]`;

/** Replays at once in a batch unless the file or --concurrency says otherwise. */
const DEFAULT_CONCURRENCY = 2;

/** The flags that choose the model; they are checked and read by the main command's parser. */
const MODEL_FLAGS = [
  'provider',
  'model',
  'base-url',
  'reasoning-effort',
  'tool-protocol',
  'openai-api',
  'context-window',
  'input-price',
  'output-price',
  'idle-timeout',
  'max-iterations',
] as const;

/** Where the command writes and what it reads from the environment. */
interface ReplayCommandIo {
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  readonly style: Style;
  readonly redactor?: SecretRedactor;
}

/** `smith replay …` (argv after the word replay); returns the exit code. */
export async function runReplayCommand(argv: readonly string[], io: ReplayCommandIo): Promise<number> {
  const { values, positionals } = parse(argv);
  if (values.help) {
    io.out.write(
      `Usage: ${REPLAY_USAGE}\n\nRuns a stored task's messages again from its first checkpoint in a scratch copy of its workspace, approving\nonly what the original run approved, and compares the two runs. Commands run in the sandbox (bubblewrap), the scratch copy\ntheir only writable place; without bubblewrap they are not run unless --run-commands-unconfined is given. See docs/replay.md.\n`,
    );
    return 0;
  }
  if (values.output !== 'human' && values.output !== 'json') throw new UsageError(`--output must be human or json; got "${values.output}"\n${REPLAY_USAGE}`);
  const json = values.output === 'json';
  const storageDir = values.storage ?? defaultStorageDir();
  reportInterruptedRestores(storageDir, io.err, io.style);
  const controller = new AbortController();
  const offSignals = onStopSignals(() => {
    io.err.write('\nStopping the replay…\n');
    controller.abort();
  });
  try {
    if (values.batch === undefined) {
      if (positionals.length !== 1) throw new UsageError(REPLAY_USAGE);
      const comparison = await replayOnce(taskIdArgument(positionals[0]!, 'replay'), argv, 'replay', storageDir, io, controller.signal);
      io.out.write(json ? `${JSON.stringify(comparison)}\n` : `${formatComparison(comparison, io.style)}\n`);
      return 0;
    }
    if (positionals.length > 0) throw new UsageError(`--batch takes no task id: the file lists them\n${REPLAY_USAGE}`);
    const batch = readReplayBatch(values.batch);
    const concurrency = values.concurrency === undefined ? (batch.concurrency ?? DEFAULT_CONCURRENCY) : positiveWhole(values.concurrency, '--concurrency');
    const rows = await inPool(batch.runs, concurrency, async (entry, index): Promise<BatchRow> => {
      const label = entry.label ?? entry.model ?? `replay ${index + 1}`;
      try {
        // The entry's settings come after the command line's, so they win.
        const comparison = await replayOnce(
          taskIdArgument(entry.task, `batch entry ${label}`),
          [...argv, ...entryFlags(entry)],
          label,
          storageDir,
          io,
          controller.signal,
        );
        return { label, taskId: entry.task, comparison };
      } catch (error) {
        if (!(error instanceof ReplayError || error instanceof UsageError)) throw error;
        return { label, taskId: entry.task, error: error.message };
      }
    });
    io.out.write(json ? `${JSON.stringify({ runs: rows })}\n` : `${formatBatch(rows, io.style)}\n`);
    return rows.some((row) => 'error' in row) ? 1 : 0;
  } finally {
    offSignals();
  }
}

/** One replay with the settings `flags` give, showing its tool calls on stderr as they happen. */
async function replayOnce(
  taskId: string,
  flags: readonly string[],
  label: string,
  storageDir: string,
  io: ReplayCommandIo,
  signal: AbortSignal,
): Promise<ReplayComparison> {
  const { values } = parse(flags);
  const { style, err } = io;
  const settings = replaySettings(values, io.env);
  const host = createCliHost(undefined, err, style);
  return replayTask({
    storageDir,
    taskId,
    settings,
    host: {
      files: host.files,
      processes: host.processes,
      clock: host.clock,
      ripgrepPath: host.ripgrepPath,
      notify: (level, message) => host.notify(level, `[${label}] ${message}`),
    },
    ...(io.redactor ? { redactor: io.redactor } : {}),
    signal,
    onTask: (task) => {
      const started = task.log.events[0];
      err.write(`${style.dim(`[${style.text(label)}] replaying task ${taskId} in ${started?.type === 'task_started' ? started.cwd : '?'}`)}\n`);
      task.onUpdate((update) => {
        if (update.type !== 'event') return;
        const event = update.event;
        if (event.type === 'tool_requested')
          err.write(`${style.dim(`[${style.text(label)}]`)} ${style.text(event.tool)} ${style.text(event.params.path ?? event.params.command ?? '')}\n`);
        else if (event.type === 'approval_answered' && !event.approved)
          err.write(`${style.dim(`[${style.text(label)}]`)} ${style.yellow(`rejected: ${style.text(event.feedback ?? '')}`)}\n`);
      });
    },
  });
}

/** The replay's settings from its flags: the model flags as the main command reads them, the mode, the rules file. */
function replaySettings(values: ReturnType<typeof parse>['values'], env: NodeJS.ProcessEnv): ReplaySettings {
  const given = values as Readonly<Record<string, unknown>>;
  const modelArgs = MODEL_FLAGS.flatMap((flag) => (typeof given[flag] === 'string' ? [`--${flag}`, given[flag]] : []));
  // Checked now, so a mistyped flag is a usage error before anything runs.
  const checked = parseCliArgs(modelArgs, process.cwd());
  if (values.skill !== undefined && values.mode !== undefined && values.skill !== values.mode)
    throw new UsageError('--skill is the older spelling of --mode; give one of them');
  // Said once per command line; a batch's entries are read through the same flags.
  if (values.skill !== undefined) process.stderr.write('Note: --skill is deprecated and will be removed in the next release; use --mode NAME\n');
  const modeSlug = values.mode ?? values.skill;
  let rules: string | undefined;
  if (values.rules !== undefined) {
    try {
      rules = readFileSync(values.rules, 'utf8');
    } catch (error) {
      throw new UsageError(`--rules: ${(error as Error).message}`);
    }
  }
  return {
    // Without --provider (or a --base-url naming another endpoint), the original's provider; without --model, its model.
    provider: (original) => {
      const provider = checked.provider ?? (!checked.baseUrl && isProviderId(original.provider) ? original.provider : undefined);
      const options = { ...checked, ...(provider ? { provider } : {}), model: checked.model ?? original.model };
      return createProvider(providerConfigFrom(options, env));
    },
    ...(modeSlug ? { modeSlug } : {}),
    ...(rules !== undefined ? { rules } : {}),
    ...(values['run-commands-unconfined'] ? { runCommandsUnconfined: true } : {}),
    maxIterations: checked.maxIterations,
    modelOverrides: checked.modelOverrides,
  };
}

function positiveWhole(raw: string, flag: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${flag} must be a positive whole number; got "${raw}"`);
  return value;
}

function parse(args: readonly string[]) {
  return parseFlags(
    args,
    {
      help: { type: 'boolean', short: 'h' },
      batch: { type: 'string' },
      concurrency: { type: 'string' },
      output: { type: 'string', default: 'human' },
      storage: { type: 'string' },
      mode: { type: 'string' },
      skill: { type: 'string' },
      rules: { type: 'string' },
      'run-commands-unconfined': { type: 'boolean' },
      ...Object.fromEntries(MODEL_FLAGS.map((flag) => [flag, { type: 'string' as const }])),
    },
    { positionals: true, usage: REPLAY_USAGE },
  );
}
