// `smith mcp-serve [--cwd DIR] [--provider ... --model ... --base-url ...]`: Smith as an MCP server on stdio.
import { realpathSync } from 'node:fs';
import type { ProviderConfig } from '../core/providers/types.js';
import { parseCliArgs } from './args.js';
import { UsageError } from './usage-error.js';
import { defaultStorageDir } from './default-storage.js';
import { runMcpServe } from './mcp-serve.js';
import { providerConfigFrom } from './provider-settings.js';
import { reportInterruptedRestores } from './restore-recovery.js';
import type { SubcommandIo } from './subcommand-io.js';

declare const SMITH_VERSION: string | undefined;

/** What `smith mcp-serve --help` prints. */
const MCP_SERVE_HELP = `Usage: smith mcp-serve [--cwd DIR] [--storage DIR] [provider options: --provider, --model, --base-url, --profile …]

Smith as an MCP server on stdio: the workspace tools (read_file, list_files, search_files,
list_code_definition_names, replace_in_file, write_to_file) inside --cwd, and run_task(task), which
runs a whole task with the configured provider. The provider options are those of smith --help.
See docs/mcp.md.`;

export async function serveMcp(argv: readonly string[], io: SubcommandIo): Promise<number> {
  const options = parseCliArgs(argv, io.cwd);
  if (options.help) {
    io.out.write(`${MCP_SERVE_HELP}\n`);
    return 0;
  }
  const storageDir = options.storage ?? defaultStorageDir();
  reportInterruptedRestores(storageDir, io.err, io.style);
  if (options.addDirs.length > 0) throw new UsageError('mcp-serve serves one folder (--cwd); --add-dir is for tasks smith runs itself');
  let cwd: string;
  try {
    cwd = realpathSync(options.cwd);
  } catch {
    throw new UsageError(`--cwd folder does not exist: ${options.cwd}`);
  }
  let providerConfig: ProviderConfig | undefined;
  try {
    providerConfig = providerConfigFrom(options, io.env);
  } catch {
    // No model configured: the workspace tools still work, and run_task says how to configure one.
  }
  await runMcpServe({
    cwd,
    storageDir,
    ...(providerConfig ? { providerConfig } : {}),
    maxIterations: options.maxIterations,
    version: typeof SMITH_VERSION === 'string' ? SMITH_VERSION : '0.0.0-dev',
  });
  return 0;
}
