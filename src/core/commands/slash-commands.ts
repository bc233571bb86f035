import type { McpPromptInfo } from '../mcp/mcp-connection.js';
import type { McpHub } from '../mcp/mcp-hub.js';
import { refusalReason, type ReadGuard } from '../workspace/read-guard.js';
import { expandCommand, type CustomCommand } from './custom-commands.js';

/** Where `/name` commands come from: the user's command files and the connected MCP servers' prompts. */
export interface SlashSources {
  readonly commands: readonly CustomCommand[];
  readonly mcp?: McpHub;
  /** The user's Read rules: a command file they withhold is not sent. */
  readonly readGuard?: ReadGuard;
}

/** One command as a picker or `/help` lists it. */
interface SlashChoice {
  readonly name: string;
  /** What goes after the name, e.g. `<file> [focus]`. */
  readonly hint: string;
  readonly description: string;
  /** Its file's folder, or `MCP server <name>`. */
  readonly source: string;
}

/** The prompts of the connected MCP servers as slash commands, named `mcp__server__prompt` (as in Claude Code). */
function mcpPromptCommands(mcp: McpHub | undefined): Array<{ command: string; server: string; prompt: McpPromptInfo }> {
  if (!mcp) return [];
  return mcp
    .servers()
    .filter((server) => server.status === 'connected')
    .flatMap((server) => server.prompts.map((prompt) => ({ command: `mcp__${server.name}__${prompt.name}`, server: server.name, prompt })));
}

/** Every command the user can type, command files first. */
export function slashChoices(sources: SlashSources): SlashChoice[] {
  return [
    ...sources.commands.map((c) => ({ name: c.name, hint: c.argumentHint ?? '', description: c.description ?? '', source: c.source })),
    ...mcpPromptCommands(sources.mcp).map(({ command, server, prompt }) => ({
      name: command,
      hint: prompt.arguments.map((a) => (a.required ? a.name : `[${a.name}]`)).join(' '),
      description: prompt.description ?? '',
      source: `MCP server ${server}`,
    })),
  ];
}

/**
 * The message `/name arguments` sends: a command file's text with the arguments put in, or an MCP
 * prompt with its arguments filled in order (the last takes the rest of the line). Undefined when
 * there is no such command; throws naming the arguments a prompt is missing.
 */
export async function expandSlashCommand(name: string, args: string, sources: SlashSources): Promise<string | undefined> {
  const fromFile = expandCommandFile(name, args, sources);
  if (fromFile !== undefined) return fromFile;
  const found = mcpPromptCommands(sources.mcp).find((p) => p.command === name);
  if (!found || !sources.mcp) return undefined;
  const words = args.trim() === '' ? [] : args.trim().split(/\s+/);
  const values: Record<string, string> = {};
  found.prompt.arguments.forEach((argument, i) => {
    const last = i === found.prompt.arguments.length - 1;
    const value = last ? words.slice(i).join(' ') : words[i];
    if (value) values[argument.name] = value;
  });
  const missing = found.prompt.arguments.filter((a) => a.required && !values[a.name]).map((a) => a.name);
  if (missing.length > 0)
    throw new Error(`/${name} needs: ${found.prompt.arguments.map((a) => (a.required ? a.name : `[${a.name}]`)).join(' ')} (missing ${missing.join(', ')})`);
  return sources.mcp.getPrompt(found.server, found.prompt.name, values);
}

/** The command-file half of expandSlashCommand, at once (no MCP server to ask): undefined when no file has that name. */
export function expandCommandFile(name: string, args: string, sources: Pick<SlashSources, 'commands' | 'readGuard'>): string | undefined {
  const command = sources.commands.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!command) return undefined;
  const refusal = command.path === undefined ? undefined : sources.readGuard?.refusal(command.path);
  if (refusal) throw new Error(`/${command.name} was not sent: its file ${command.source} is withheld (${refusalReason(refusal)}).`);
  return expandCommand(command, args);
}
