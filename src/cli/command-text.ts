import { join } from 'node:path';
import { loadCustomCommands } from '../core/commands/custom-commands.js';
import { expandCommandFile, expandSlashCommand } from '../core/commands/slash-commands.js';
import type { McpHub } from '../core/mcp/mcp-hub.js';
import { readGuardOf } from '../core/permissions/read-rule-guard.js';
import type { TaskOptions } from '../core/task/task.js';
import { parseSlashInput, type SlashInput } from '../shared/builtin-commands.js';

/** A slash command (src/shared/builtin-commands.ts reads it): "/etc/hosts is wrong" is not one, so a reply may start with a path. */
export function isSlashCommand(line: string): boolean {
  return parseSlashInput(line) !== undefined;
}

/** Where command files are read and who may read them: the task's options (workspace, storage, Read rules) and the MCP servers. */
export interface CommandTextSources {
  readonly options: TaskOptions;
  readonly mcp?: McpHub | undefined;
  /** Told of command files that could not be loaded. */
  readonly warn: (message: string) => void;
}

/** What the command files and Read rules say about a command. */
function lookUp(sources: CommandTextSources) {
  const { options } = sources;
  const { commands, problems } = loadCustomCommands({ workspaceRoot: options.cwd, userCommandsDir: join(options.storageDir, 'commands') });
  for (const problem of problems) sources.warn(problem);
  const readGuard = readGuardOf(options.permissions, { cwd: options.cwd, ...(options.workspace ? { workspace: options.workspace } : {}) });
  return { commands, readGuard };
}

/**
 * The message `/name arguments` sends, from a command file in any of the documented folders or an
 * MCP prompt, as the REPL sends it; undefined when there is no such command. Throws when the
 * command cannot be sent (its file withheld by a Read rule, a prompt's argument missing).
 */
export async function customCommandText({ name, args }: SlashInput, sources: CommandTextSources): Promise<string | undefined> {
  const { commands, readGuard } = lookUp(sources);
  return expandSlashCommand(name, args, { commands, readGuard, ...(sources.mcp ? { mcp: sources.mcp } : {}) });
}

/**
 * A task or message given to the CLI (positional, --resume message, an --input stream-json
 * message) as the model gets it: a `/name args` of a known command expanded, as Claude Code's -p
 * does; anything else, an unknown `/name` included (it may be a path such as "/tmp is full"), as
 * written. A string at once unless an MCP server must be asked for its prompt.
 */
export function taskMessageText(text: string, sources: CommandTextSources): string | Promise<string> {
  const input = parseSlashInput(text);
  if (!input) return text;
  const { name, args } = input;
  const { commands, readGuard } = lookUp(sources);
  const fromFile = expandCommandFile(name, args, { commands, readGuard });
  if (fromFile !== undefined) return fromFile;
  if (!sources.mcp) return text;
  return expandSlashCommand(name, args, { commands, readGuard, mcp: sources.mcp }).then((expanded) => expanded ?? text);
}
