import { join } from 'node:path';
import { loadCustomCommands } from '../core/commands/custom-commands.js';
import { expandSlashCommand, slashChoices, type SlashSources } from '../core/commands/slash-commands.js';
import type { McpHub } from '../core/mcp/mcp-hub.js';
import type { MentionSuggestion } from '../shared/protocol.js';

/** Where the panel's slash commands come from. */
export interface SlashInputs {
  readonly storageDir: string;
  readonly cwd: string | undefined;
  readonly mcp?: McpHub | undefined;
}

/**
 * A message that starts with `/name` is the user's command: its file's text (or the MCP prompt)
 * is sent instead. Other text is sent as it is; an unknown command is refused, naming the known ones.
 */
export async function expandSlashInput(text: string, inputs: SlashInputs): Promise<string> {
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(text.trimEnd());
  if (!match) return text;
  const sources = slashSources(inputs);
  const expanded = await expandSlashCommand(match[1] ?? '', match[2] ?? '', sources);
  if (expanded !== undefined) return expanded;
  const known = slashChoices(sources).map((c) => `/${c.name}`);
  throw new Error(`Unknown command /${match[1]}. ${known.length > 0 ? `Your commands: ${known.join(', ')}.` : 'You have no commands yet: see docs/context.md (Slash commands).'} Start the message with a space to send it as text.`);
}

/** Completions for a command being typed at the start of the Task box. */
export function slashSuggestions(query: string, inputs: SlashInputs): MentionSuggestion[] {
  const needle = query.toLowerCase();
  return slashChoices(slashSources(inputs))
    .filter((c) => c.name.toLowerCase().startsWith(needle))
    .map((c) => ({ value: c.name, label: `${c.name}${c.hint ? ` ${c.hint}` : ''}`, detail: c.description || c.source }));
}

function slashSources(inputs: SlashInputs): SlashSources {
  const commands = inputs.cwd ? loadCustomCommands({ workspaceRoot: inputs.cwd, userCommandsDir: join(inputs.storageDir, 'commands') }).commands : [];
  return { commands, ...(inputs.mcp ? { mcp: inputs.mcp } : {}) };
}
