// `smith commit-message`: prints a commit message for the repository's staged changes (or all of
// them when nothing is staged), written by the provider the flags, an API profile or the
// environment choose, exactly as `smith` itself chooses it (docs/commit-messages.md).
import { realpathSync } from 'node:fs';
import { readCommitChanges, CommitChangesError } from '../core/commit-message/commit-changes.js';
import { writeCommitMessage } from '../core/commit-message/commit-message.js';
import { createProvider } from '../core/providers/create-provider.js';
import { parseCliArgs } from './args.js';
import { providerConfigFrom } from './provider-settings.js';
import type { SubcommandIo } from './subcommand-io.js';
import { terminalSafeText } from './terminal-safe-text.js';
import { UsageError, parseFlags } from './usage-error.js';

/** The flags that choose the model, checked and read by the main command's parser. */
const MODEL_FLAGS = ['provider', 'model', 'base-url', 'reasoning-effort', 'openai-api', 'idle-timeout', 'profile', 'storage'] as const;

export const COMMIT_MESSAGE_USAGE = `Usage: smith commit-message [--staged | --all] [--cwd DIR] [--profile NAME] [--provider NAME] [--model ID] [--base-url URL]

Prints a commit message for the changes of the git repository DIR (default: the current folder) is in:
the staged changes, or, when nothing is staged, every change of the working tree (new files
included). --staged and --all choose. The model is chosen as for \`smith\` (--profile, --provider,
--model, --base-url, --reasoning-effort, --openai-api, --idle-timeout, --storage; the keys from the
environment); a cheaper API profile is a good choice. The diff is read from git, cut to about 24,000
characters (each file keeps a part), and your keys are redacted from it before it is sent.
Exit codes: 0 printed; 1 no repository, nothing to describe, or the provider failed; 2 usage.`;

function parse(argv: readonly string[]) {
  return parseFlags(
    argv,
    {
      help: { type: 'boolean', short: 'h' },
      staged: { type: 'boolean' },
      all: { type: 'boolean' },
      cwd: { type: 'string' },
      ...Object.fromEntries(MODEL_FLAGS.map((flag) => [flag, { type: 'string' as const }])),
    },
    { positionals: false, usage: COMMIT_MESSAGE_USAGE },
  );
}

/** Runs `smith commit-message …` (argv after "commit-message"); the exit code. */
export async function runCommitMessageCommand(argv: readonly string[], io: SubcommandIo): Promise<number> {
  const { values } = parse(argv);
  if (values.help) {
    io.out.write(`${COMMIT_MESSAGE_USAGE}\n`);
    return 0;
  }
  if (values.staged && values.all) throw new UsageError('--staged and --all cannot be used together');
  const given = values as Readonly<Record<string, unknown>>;
  const modelArgs = MODEL_FLAGS.flatMap((flag) => (typeof given[flag] === 'string' ? [`--${flag}`, given[flag] as string] : []));
  const options = parseCliArgs(modelArgs, io.cwd);
  // The provider first: a missing key or an unknown profile is said before git is asked anything.
  const provider = createProvider(providerConfigFrom(options, io.env));
  let cwd: string;
  try {
    cwd = realpathSync(values.cwd ?? io.cwd);
  } catch {
    throw new UsageError(`--cwd folder does not exist: ${values.cwd}`);
  }
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const changes = await readCommitChanges(cwd, values.staged ? 'staged' : values.all ? 'all' : 'auto', { signal: abort.signal });
    if (changes.cut) io.err.write('smith: the diff is large; the model sees each file’s first lines and the whole file list\n');
    const message = await writeCommitMessage(changes, {
      provider,
      ...(io.redactor ? { redactor: io.redactor } : {}),
      signal: abort.signal,
      onRetry: (info) =>
        io.err.write(
          `smith: ${info.error.message.replace(/\.?$/, '.')} Retrying in ${Math.round(info.delayMs / 1000)} s (${info.attempt}/${info.maxRetries}).\n`,
        ),
    });
    // The model's text, without escape sequences that could drive the terminal.
    io.out.write(`${terminalSafeText(message)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof CommitChangesError) {
      io.err.write(`smith: ${error.message}${error.code === 'no-changes' ? ' (nothing to write a commit message for)' : ''}\n`);
      return 1;
    }
    throw error;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
