// The `smith <subcommand>` table: each runs from its own module, loaded only when it is asked for.
// A new subcommand adds its name to SUBCOMMAND_NAMES (args.ts) and its runner here.
import { SUBCOMMANDS, type SubcommandName } from './args.js';
import type { SubcommandIo } from './subcommand-io.js';

type SubcommandRunner = (argv: readonly string[], io: SubcommandIo) => Promise<number>;

export function subcommandOf(word: string | undefined): SubcommandName | undefined {
  return word !== undefined && SUBCOMMANDS.includes(word) ? (word as SubcommandName) : undefined;
}

/** Each runner is given the arguments after the subcommand's name. */
export const SUBCOMMAND_RUNNERS: Record<SubcommandName, SubcommandRunner> = {
  'mcp-serve': async (argv, io) => (await import('./mcp-serve-command.js')).serveMcp(argv, io),
  mcp: async (argv, io) => {
    // `smith mcp serve` is `smith mcp-serve`.
    if (argv[0] === 'serve') return (await import('./mcp-serve-command.js')).serveMcp(argv.slice(1), io);
    const { runMcpCommand } = await import('./mcp-command.js');
    return runMcpCommand(argv, { stdout: io.out, stderr: io.err, env: io.env, cwd: io.cwd });
  },
  acp: async (argv, io) => (await import('./acp/acp-command.js')).runAcpCommand(argv, io),
  checkpoints: async (argv, io) => (await import('./checkpoint-commands.js')).runCheckpointCommand(['checkpoints', ...argv], io.out, io.err, io.style),
  rewind: async (argv, io) => (await import('./checkpoint-commands.js')).runCheckpointCommand(['rewind', ...argv], io.out, io.err, io.style),
  worktree: async (argv, io) => (await import('./worktree-command.js')).runWorktreeCommand(argv, { out: io.out, err: io.err, style: io.style }),
  models: async (argv, io) => (await import('./models-command.js')).runModelsCommand(argv, { stdout: io.out, stderr: io.err, env: io.env, cwd: io.cwd }),
  'commit-message': async (argv, io) => (await import('./commit-message-command.js')).runCommitMessageCommand(argv, io),
  replay: async (argv, io) =>
    (await import('./replay-command.js')).runReplayCommand(argv, { out: io.out, err: io.err, env: io.env, style: io.style, redactor: io.redactor }),
  'preview-command': async (argv, io) => (await import('./preview-command.js')).runPreviewCommand(argv, io),
  bisect: async (argv, io) => (await import('./bisect-command.js')).runBisectCommand(argv, io),
  import: async (argv, io) => (await import('./import-command.js')).runImportCommand(argv, io),
};
