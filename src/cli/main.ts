// The `smith` entry point. It answers --help and --version itself and loads the rest of the CLI
// (dist/cli-main.js: providers, MCP, tree-sitter…) only for commands that need it, because
// compiling that bundle costs several times Node's own start-up.
import { SUBCOMMANDS, USAGE, UsageError, parseCliArgs } from './args.js';
import { routeConsoleToStderr } from './console-to-stderr.js';

declare const SMITH_VERSION: string | undefined;

/** Prints the help or the version when asked for; false when the full CLI must run. */
function answeredQuickly(argv: readonly string[]): boolean {
  if (argv[0] !== undefined && SUBCOMMANDS.includes(argv[0])) return false;
  let options: ReturnType<typeof parseCliArgs>;
  try {
    options = parseCliArgs(argv, process.cwd());
  } catch (error) {
    // The full CLI parses again and reports the mistake the one way it reports every error.
    if (error instanceof UsageError) return false;
    throw error;
  }
  if (options.help) process.stdout.write(`${USAGE}\n`);
  else if (options.version) process.stdout.write(`${typeof SMITH_VERSION === 'string' ? SMITH_VERSION : '0.0.0-dev'}\n`);
  return options.help || options.version;
}

const argv = process.argv.slice(2);
if (!answeredQuickly(argv)) {
  // Before any SDK is loaded: what SDKs print must never mix with Smith's own stdout.
  routeConsoleToStderr();
  // A separate bundle (see esbuild.mjs), so it is read and compiled only now.
  void import('./cli-main.js').then(({ runCli }) => runCli(argv));
}
