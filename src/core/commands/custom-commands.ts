import { homedir } from 'node:os';
import { join } from 'node:path';
import { ContainedFiles, describeSkipped, type LoaderCaps } from '../workspace/contained-files.js';
import { splitFrontMatter } from '../workspace/front-matter.js';

/** A slash command the user wrote as a Markdown file: `/name arguments` sends its text. */
export interface CustomCommand {
  /** Without the slash; a file in a sub-folder is `folder:name`, as in Claude Code. */
  readonly name: string;
  readonly description?: string;
  /** What the arguments are, for autocomplete (`argument-hint`). */
  readonly argumentHint?: string;
  /** Where it came from, for lists: e.g. `.claude/commands/review.md`. */
  readonly source: string;
  /** The command file itself (the user's Read rules may withhold it). */
  readonly path?: string;
  readonly body: string;
}

/** Where command files are read, strongest first: a workspace's command hides a user's of the same name. */
interface CommandFolders {
  readonly workspaceRoot: string;
  /** Smith's user-level commands (`<storage>/commands`). */
  readonly userCommandsDir?: string;
  /** For `~/.claude/commands` (default: the user's home folder). */
  readonly homeDir?: string;
}

/** What the command loader reads at most: 64 KiB of one file (a larger one is skipped), 512 KiB in all, 1,000 entries per folder. */
const COMMAND_CAPS: LoaderCaps = { fileBytes: 64 * 1024, totalBytes: 512 * 1024, entries: 1000 };

/** The command folders, strongest first (one list: the loader and the docs follow it); the user's own are `user`. */
function commandFolders(folders: CommandFolders): Array<{ readonly dir: string; readonly label: string; readonly user: boolean }> {
  const home = folders.homeDir ?? homedir();
  return [
    { dir: join(folders.workspaceRoot, '.smith', 'commands'), label: '.smith/commands', user: false },
    { dir: join(folders.workspaceRoot, '.claude', 'commands'), label: '.claude/commands', user: false },
    { dir: join(folders.workspaceRoot, '.clinerules', 'workflows'), label: '.clinerules/workflows', user: false },
    ...(folders.userCommandsDir ? [{ dir: folders.userCommandsDir, label: '<storage>/commands', user: true }] : []),
    { dir: join(home, '.claude', 'commands'), label: '~/.claude/commands', user: true },
  ];
}

/**
 * Reads every command file (`*.md`, recursively); the first of a name wins. A workspace folder's
 * files are read only where their real path lies inside the workspace (see contained-files.ts);
 * what is skipped, and bad front matter, is reported, and the other commands still load.
 */
export function loadCustomCommands(folders: CommandFolders): { commands: CustomCommand[]; problems: string[] } {
  const byName = new Map<string, CustomCommand>();
  const list = commandFolders(folders);
  const files = new ContainedFiles({ within: [folders.workspaceRoot], trusted: list.filter((f) => f.user).map((f) => f.dir), caps: COMMAND_CAPS });
  const problems: string[] = [];
  for (const { dir, label } of list) {
    for (const { path, rel } of files.listFiles(dir, { recursive: true, match: (name) => /\.md$/i.test(name) })) {
      const name = rel.replace(/\.md$/i, '').split('/').join(':');
      if (byName.has(name) || !/^[\w][\w:.-]*$/.test(name)) continue;
      const source = `${label}/${rel}`;
      const text = files.readText(path, 'skip');
      if (text === undefined) continue;
      const { fields, body, problem } = splitFrontMatter(text);
      if (problem) problems.push(`${source}: ${problem}`);
      const description = stringField(fields, 'description') ?? firstLine(body);
      const argumentHint = stringField(fields, 'argument-hint');
      byName.set(name, { name, source, path, body, ...(description ? { description } : {}), ...(argumentHint ? { argumentHint } : {}) });
    }
  }
  problems.push(...files.skipped.map((entry) => describeSkipped(entry, folders.workspaceRoot)));
  return { commands: [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1)), problems };
}

/**
 * The message a command sends: `$ARGUMENTS` becomes everything after the name, `$1`…`$9` the
 * words; a command that names no argument gets them appended after a blank line.
 */
export function expandCommand(command: CustomCommand, args: string): string {
  const words = args.trim() === '' ? [] : args.trim().split(/\s+/);
  const usesArguments = /\$ARGUMENTS|\$[1-9]/.test(command.body);
  const body = command.body.replace(/\$ARGUMENTS/g, args.trim()).replace(/\$([1-9])/g, (_, n: string) => words[Number(n) - 1] ?? '');
  return (usesArguments || args.trim() === '' ? body : `${body.trimEnd()}\n\n${args.trim()}`).trim();
}

function stringField(fields: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = fields[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function firstLine(body: string): string | undefined {
  const line = body.split('\n').find((l) => l.trim() !== '');
  return line
    ?.replace(/^#+\s*/, '')
    .trim()
    .slice(0, 80);
}
