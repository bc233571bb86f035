import { join } from 'node:path';
import { MentionSuggestions } from '../core/context/mention-completions.js';
import { loadCustomCommands } from '../core/commands/custom-commands.js';
import { slashChoices } from '../core/commands/slash-commands.js';
import type { McpHub } from '../core/mcp/mcp-hub.js';
import type { WorkspaceRoots } from '../core/workspace/workspace-roots.js';
import { builtinCommandsOf } from '../shared/builtin-commands.js';

/** The REPL's own commands, as its help lists them (both come from the built-in commands' table). */
export const REPL_COMMANDS: readonly string[] = builtinCommandsOf('cli').map((c) => c.name);

/** What Tab completes in the REPL: a line as readline gives it, and [completions, the part they replace]. */
type ReplCompleter = (line: string) => Promise<[string[], string]>;

/**
 * Tab in the REPL: `/` at the start completes commands (the REPL's own, the user's files, MCP
 * prompts); `@` completes mentions (problems-free ones the CLI has, and the workspace's files,
 * fuzzily, ignored ones left out).
 */
export function replCompleter(inputs: {
  readonly cwd: string;
  readonly workspace?: WorkspaceRoots;
  readonly storageDir: string;
  readonly mcp?: McpHub;
}): ReplCompleter {
  const mentions = new MentionSuggestions();
  return async (line) => {
    const command = /^\/(\S*)$/.exec(line);
    if (command) {
      const typed = command[1] ?? '';
      const user = slashChoices({
        commands: loadCustomCommands({ workspaceRoot: inputs.cwd, userCommandsDir: join(inputs.storageDir, 'commands') }).commands,
        ...(inputs.mcp ? { mcp: inputs.mcp } : {}),
      }).map((c) => c.name);
      const names = [...REPL_COMMANDS, ...user].filter((name) => name.startsWith(typed));
      return [[...new Set(names)].map((name) => `/${name}`), line];
    }
    const mention = /(?:^|[\s("'`[])(@[^\s@,;()<>"'`[\]]*)$/.exec(line);
    if (mention) {
      const typed = mention[1] ?? '@';
      // The editor's own mentions are no use here: the CLI says so when they are typed.
      const items = (await mentions.suggest(inputs.workspace ?? inputs.cwd, typed.slice(1))).filter(
        (item) => item.value !== 'problems' && item.value !== 'terminal',
      );
      return [items.map((item) => `@${item.value}`), typed];
    }
    return [[], line];
  };
}
