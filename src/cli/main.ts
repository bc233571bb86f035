// The `smith` entry point. It answers --help and --version itself, loads only the model listing
// (dist/list-models-command.js) for --list-models, and the rest of the CLI (dist/cli-main.js) only for
// commands that need it, because compiling that bundle costs several times Node's own start-up.
import { SUBCOMMANDS, parseCliArgs } from './args.js';
import { USAGE } from './usage-text.js';
import { UsageError } from './usage-error.js';
import { routeConsoleToStderr } from './console-to-stderr.js';

declare const SMITH_VERSION: string | undefined;

/** What main.ts does with a command line: answer it itself, list models, or run the whole CLI. */
type Route = 'answered' | 'list-models' | 'full';

/** Prints the help or the version when asked for, else says which bundle runs the command. */
function route(argv: readonly string[]): Route {
  if (argv[0] !== undefined && SUBCOMMANDS.includes(argv[0])) return 'full';
  let options: ReturnType<typeof parseCliArgs>;
  try {
    options = parseCliArgs(argv, process.cwd());
  } catch (error) {
    // The full CLI parses again and reports the mistake the one way it reports every error.
    if (error instanceof UsageError) return 'full';
    throw error;
  }
  if (options.help) process.stdout.write(`${USAGE}\n`);
  else if (options.version) process.stdout.write(`${typeof SMITH_VERSION === 'string' ? SMITH_VERSION : '0.0.0-dev'}\n`);
  if (options.help || options.version) return 'answered';
  return options.listModels ? 'list-models' : 'full';
}

const argv = process.argv.slice(2);
const command = route(argv);
if (command !== 'answered') {
  // Before any SDK is loaded: what SDKs print must never mix with Smith's own stdout.
  routeConsoleToStderr();
  // Separate bundles (see esbuild.mjs), so they are read and compiled only now.
  if (command === 'list-models') void import('./list-models-command.js').then(({ runListModels }) => runListModels(argv));
  else void import('./cli-main.js').then(({ runCli }) => runCli(argv));
}
