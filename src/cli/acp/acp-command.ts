// `smith acp [options]`: Smith as an Agent Client Protocol agent on stdio, for editors that drive
// agents through ACP (Zed, JetBrains IDEs, Neovim plugins). See docs/outside-vscode.md.
import { parseCliArgs } from '../args.js';
import { UsageError } from '../usage-error.js';
import { defaultStorageDir } from '../default-storage.js';
import { condenseProviderConfigFrom, modeProviderConfigsFrom, providerConfigFrom } from '../provider-settings.js';
import { reportInterruptedRestores } from '../restore-recovery.js';
import { applyStoredModelCatalog } from '../list-models-command.js';
import { sessionProviders } from '../../core/session/open-session.js';
import type { SubcommandIo } from '../subcommand-io.js';
import { cliRedactor } from '../cli-secrets.js';
import { runAcpAgent } from './acp-agent.js';

declare const SMITH_VERSION: string | undefined;

/** What `smith acp --help` prints. */
const ACP_HELP = `Usage: smith acp [options]

Smith as an Agent Client Protocol (ACP) agent on stdin/stdout, for editors such as Zed, JetBrains
IDEs and Neovim. Each session is a Smith task in the folder the editor names; its approvals are the
editor's permission requests. The provider, approval, permission, sandbox, MCP and limit options
of smith --help apply to every session (not --cwd, --add-dir, --resume, --output, --input,
--dry-run or --worktree, and no task). See docs/outside-vscode.md.`;

/** Flags that have no meaning for an agent the editor drives. */
function refuseRunFlags(argv: readonly string[], options: ReturnType<typeof parseCliArgs>): void {
  if (options.task) throw new UsageError('smith acp takes no task: the editor sends the prompts');
  const refused = [
    '--cwd',
    '--add-dir',
    '--resume',
    '--output',
    '--input',
    '--dry-run',
    '--patch-file',
    '--worktree',
    '--image',
    '--plan',
    '--act',
    '--mode',
    '--skill',
  ];
  const given = refused.find((flag) => argv.some((arg) => arg === flag || arg.startsWith(`${flag}=`)));
  if (given) throw new UsageError(`smith acp does not take ${given}: the editor chooses the folder, the session and the mode`);
}

export async function runAcpCommand(argv: readonly string[], io: SubcommandIo): Promise<number> {
  const options = parseCliArgs(argv, io.cwd);
  if (options.help) {
    io.out.write(`${ACP_HELP}\n`);
    return 0;
  }
  refuseRunFlags(argv, options);
  const storageDir = options.storage ?? defaultStorageDir(io.env);
  reportInterruptedRestores(storageDir, io.err, io.style);
  applyStoredModelCatalog(storageDir, io.err);
  await runAcpAgent(
    {
      options,
      storageDir,
      env: io.env,
      version: typeof SMITH_VERSION === 'string' ? SMITH_VERSION : '0.0.0-dev',
      redactor: io.redactor ?? cliRedactor(io.env),
      err: io.err,
      style: io.style,
      // Read again for each session and each authenticate: a profile or key the user fixed is used at once.
      providers: () => {
        const condense = condenseProviderConfigFrom(options, io.env);
        return sessionProviders({
          main: providerConfigFrom(options, io.env),
          profiles: modeProviderConfigsFrom(options, io.env),
          ...(condense ? { condense } : options.condenseModel ? { condenseModel: options.condenseModel } : {}),
        });
      },
    },
    { input: process.stdin, output: io.out },
  );
  return 0;
}
