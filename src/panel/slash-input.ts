import { join } from 'node:path';
import { loadCustomCommands } from '../core/commands/custom-commands.js';
import { expandSlashCommand, slashChoices, type SlashSources } from '../core/commands/slash-commands.js';
import type { ReadGuard } from '../core/workspace/read-guard.js';
import type { McpHub } from '../core/mcp/mcp-hub.js';
import type { MentionSuggestion } from '../shared/protocol.js';
import { builtinCommand, builtinCommandsOf, parseSlashInput, type BuiltinName } from '../shared/builtin-commands.js';

/** A panel command as typed: one of the built-in commands the panel offers, and its arguments. */
export type PanelCommand = { readonly name: BuiltinName<'panel'>; readonly args: string };

/** The panel command a message is, if any (`/mode plan`). */
export function panelCommand(text: string): PanelCommand | undefined {
  const input = parseSlashInput(text);
  const command = input && builtinCommand(input, 'panel');
  return command && input ? { name: command.name, args: input.args } : undefined;
}

/** Where the panel's slash commands come from. */
export interface SlashInputs {
  readonly storageDir: string;
  readonly cwd: string | undefined;
  readonly mcp?: McpHub | undefined;
  /** The user's Read rules: a command file they withhold is not sent. */
  readonly readGuard?: ReadGuard;
}

/**
 * A message that starts with `/name` is the user's command: its file's text (or the MCP prompt)
 * is sent instead. Other text is sent as it is (`//…` as `/…`); an unknown command is refused, naming the known ones.
 */
export async function expandSlashInput(text: string, inputs: SlashInputs): Promise<string> {
  if (text.startsWith('//')) return text.slice(1);
  const slash = parseSlashInput(text);
  if (!slash) return text;
  const { problems, ...sources } = slashSources(inputs);
  const expanded = await expandSlashCommand(slash.name, slash.args, sources);
  if (expanded !== undefined) return expanded;
  const known = slashChoices(sources).map((c) => `/${c.name}`);
  // Command files skipped (a link out of the workspace, too large, not a regular file) are named, so a missing command is explained.
  const skipped = problems.length > 0 ? ` Not loaded: ${problems.join('; ')}.` : '';
  throw new Error(
    `Unknown command /${slash.name}. ${known.length > 0 ? `Your commands: ${known.join(', ')}.` : 'You have no commands yet: see docs/context.md (Slash commands).'}${skipped} Start the message with // to send it as text.`,
  );
}

/** Completions for a command being typed at the start of the Task box. */
export function slashSuggestions(query: string, inputs: SlashInputs): MentionSuggestion[] {
  const needle = query.toLowerCase();
  const builtins = builtinCommandsOf('panel').map((c) => ({ name: c.name, hint: c.args, description: c.description, source: 'Smith' }));
  return [...builtins, ...slashChoices(slashSources(inputs))]
    .filter((c) => c.name.toLowerCase().startsWith(needle))
    .map((c) => ({ value: c.name, label: `${c.name}${c.hint ? ` ${c.hint}` : ''}`, detail: c.description || c.source }));
}

function slashSources(inputs: SlashInputs): SlashSources & { readonly problems: readonly string[] } {
  const { commands, problems } = inputs.cwd
    ? loadCustomCommands({ workspaceRoot: inputs.cwd, userCommandsDir: join(inputs.storageDir, 'commands') })
    : { commands: [], problems: [] };
  return { commands, problems, ...(inputs.mcp ? { mcp: inputs.mcp } : {}), ...(inputs.readGuard ? { readGuard: inputs.readGuard } : {}) };
}
