// The built-in slash commands of both hosts in one table, and the one reading of a typed
// `/name arguments` that the REPL, the CLI's task messages and the panel share. Pure: the webview
// may import it too.

/** Where a command can be typed: the CLI's REPL or the panel's Task box. */
type CommandHost = 'cli' | 'panel';

/** A built-in command as its host lists it and runs it. */
export interface BuiltinCommand {
  /** Without the slash, lower case. */
  readonly name: string;
  /** Other names that run it. */
  readonly aliases?: readonly string[];
  /** What goes after the name, as help and completions show it ('' for nothing). */
  readonly args: string;
  readonly description: string;
  /** Further lines help shows under the description (options, subcommands). */
  readonly notes?: readonly string[];
  /** The hosts that offer it; in any other host `/name` is not a built-in command. */
  readonly hosts: readonly CommandHost[];
  /** It replaces or rewrites the task, so it waits until a running task has stopped. */
  readonly whenStopped?: boolean;
}

/** Every built-in command, in the order help and completions list them. */
const BUILTIN_COMMANDS = [
  { name: 'help', args: '', description: 'This help', hosts: ['cli'] },
  { name: 'clear', args: '', description: 'Start a new task with the next message', hosts: ['cli'], whenStopped: true },
  { name: 'newtask', args: '[task]', description: 'Start a new task (with the text as its task), or an empty chat', hosts: ['panel'] },
  { name: 'history', args: '', description: 'List stored tasks', hosts: ['cli'] },
  {
    name: 'resume',
    args: 'ID [msg]',
    description: 'Continue a stored task (with a new message, or where it stopped)',
    hosts: ['cli'],
    whenStopped: true,
  },
  { name: 'events', args: '', description: "Print the current task's event log (JSONL)", hosts: ['cli'] },
  {
    name: 'condense',
    args: '',
    description: 'Summarise the task so far; the summary replaces older history for the model',
    hosts: ['cli', 'panel'],
    whenStopped: true,
  },
  { name: 'rules', args: '', description: 'List the rules files found and whether each applies now', hosts: ['cli'] },
  { name: 'skills', args: '', description: 'List the Agent Skills found, where each comes from, and whether each is offered', hosts: ['cli', 'panel'] },
  { name: 'permissions', args: '', description: 'List the permission rules and hooks in force', hosts: ['cli'] },
  { name: 'checkpoints', args: '', description: "List the current task's checkpoints", hosts: ['cli'] },
  {
    name: 'rewind',
    args: 'ID',
    description: 'Put files and conversation back to checkpoint ID',
    notes: ['(--files-only, --conversation-only; --force overwrites your later changes)'],
    hosts: ['cli'],
    whenStopped: true,
  },
  { name: 'plan', args: '', description: 'Switch to Plan mode (read and discuss, no edits)', hosts: ['cli', 'panel'] },
  { name: 'act', args: '', description: 'Switch to Act mode (carry the task out)', hosts: ['cli', 'panel'] },
  {
    name: 'mode',
    aliases: ['skill'],
    args: '[slug]',
    description: 'Switch the mode (code, architect, ask, or your own); without a slug, list them',
    notes: ['(/mode plan and /mode act still switch Plan/Act while no mode has that name; /skill is its older name)'],
    hosts: ['cli', 'panel'],
  },
  {
    name: 'mcp',
    args: '',
    description: 'List MCP servers: status, transport, tool counts',
    notes: [
      "/mcp tools NAME      a server's tools with descriptions",
      "/mcp log NAME        a server's recent stderr and log messages",
      '/mcp restart NAME    reconnect a server',
      '/mcp disable NAME    turn a server off for this session (/mcp enable NAME turns it back on)',
      '/mcp login NAME      sign in to a remote server with OAuth in the browser',
      "/mcp logout NAME     forget a remote server's OAuth tokens",
    ],
    hosts: ['cli'],
  },
  { name: 'exit', aliases: ['quit'], args: '', description: 'Quit (stopping a running task)', hosts: ['cli'] },
] as const satisfies readonly BuiltinCommand[];

/** The names of the built-in commands `host` offers. */
export type BuiltinName<H extends CommandHost> = (typeof BUILTIN_COMMANDS)[number] extends infer C
  ? C extends { readonly name: infer N; readonly hosts: readonly (infer Hs)[] }
    ? H extends Hs
      ? N
      : never
    : never
  : never;

/** `/name arguments` as typed: the name without its slash, as written, and the arguments trimmed. */
export interface SlashInput {
  readonly name: string;
  readonly args: string;
}

/**
 * Reads `/name arguments`: a slash, a name of anything but white space and slashes, then white
 * space or the end. Surrounding white space is ignored. Anything else is not a command, so text
 * that starts with a path ("/etc/hosts is wrong"), a lone "/" or "//…" is a message.
 */
export function parseSlashInput(text: string): SlashInput | undefined {
  const match = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return match ? { name: match[1] ?? '', args: match[2] ?? '' } : undefined;
}

/** The built-in command `input` names in `host` (any case, aliases too), or undefined. */
export function builtinCommand<H extends CommandHost>(input: SlashInput, host: H): (BuiltinCommand & { readonly name: BuiltinName<H> }) | undefined {
  const name = input.name.toLowerCase();
  const found = (BUILTIN_COMMANDS as readonly BuiltinCommand[]).find((c) => c.hosts.includes(host) && (c.name === name || (c.aliases ?? []).includes(name)));
  return found as (BuiltinCommand & { readonly name: BuiltinName<H> }) | undefined;
}

/** The built-in commands `host` offers, in help order. */
export function builtinCommandsOf(host: CommandHost): readonly BuiltinCommand[] {
  return (BUILTIN_COMMANDS as readonly BuiltinCommand[]).filter((c) => c.hosts.includes(host));
}

/** What `/mode ARG` asks for: a mode by slug, Plan or Act (the older use, while no mode has that name), a list, or an unknown name. */
export type ModeArgument =
  | { readonly kind: 'list' }
  | { readonly kind: 'mode'; readonly slug: string }
  | { readonly kind: 'planAct'; readonly planAct: 'plan' | 'act' }
  | { readonly kind: 'unknown'; readonly slug: string };

/** Reads `/mode ARG` against the slugs of the modes there are; a mode of that name wins over Plan/Act. */
export function readModeArgument(arg: string, slugs: readonly string[]): ModeArgument {
  const slug = arg.trim();
  if (slug === '') return { kind: 'list' };
  if (slugs.includes(slug)) return { kind: 'mode', slug };
  if (slug === 'plan' || slug === 'act') return { kind: 'planAct', planAct: slug };
  return { kind: 'unknown', slug };
}

/** The note a host shows when a command was typed by its older name (`/skill` for `/mode`), or undefined. */
export function olderCommandName(input: SlashInput): string | undefined {
  return input.name.toLowerCase() === 'skill' ? '/skill is deprecated and will be removed in the next release; use /mode' : undefined;
}
