import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, sep } from 'node:path';
import { splitFrontMatter } from '../workspace/front-matter.js';
import { NotRegularFileError, readRegularFileSync } from '../workspace/regular-file.js';

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
export interface CommandFolders {
  readonly workspaceRoot: string;
  /** Smith's user-level commands (`<storage>/commands`). */
  readonly userCommandsDir?: string;
  /** For `~/.claude/commands` (default: the user's home folder). */
  readonly homeDir?: string;
}

/** The command folders, strongest first (one list: the loader and the docs follow it). */
export function commandFolders(folders: CommandFolders): Array<{ readonly dir: string; readonly label: string }> {
  const home = folders.homeDir ?? homedir();
  return [
    { dir: join(folders.workspaceRoot, '.smith', 'commands'), label: '.smith/commands' },
    { dir: join(folders.workspaceRoot, '.claude', 'commands'), label: '.claude/commands' },
    { dir: join(folders.workspaceRoot, '.clinerules', 'workflows'), label: '.clinerules/workflows' },
    ...(folders.userCommandsDir ? [{ dir: folders.userCommandsDir, label: '<storage>/commands' }] : []),
    { dir: join(home, '.claude', 'commands'), label: '~/.claude/commands' },
  ];
}

/**
 * Reads every command file (`*.md`, recursively); the first of a name wins. Files that are not
 * regular files are skipped; bad front matter is reported and the file still works as a command.
 */
export function loadCustomCommands(folders: CommandFolders): { commands: CustomCommand[]; problems: string[] } {
  const byName = new Map<string, CustomCommand>();
  const problems: string[] = [];
  for (const { dir, label } of commandFolders(folders)) {
    for (const rel of markdownFiles(dir)) {
      const name = rel.replace(/\.md$/i, '').split(sep).join(':');
      if (byName.has(name) || !/^[\w][\w:.-]*$/.test(name)) continue;
      const source = `${label}/${rel.split(sep).join('/')}`;
      let text: string;
      try {
        text = readRegularFileSync(join(dir, rel)).toString('utf8');
      } catch (error) {
        if (!(error instanceof NotRegularFileError)) problems.push(`${source}: ${(error as Error).message}`);
        continue;
      }
      const { fields, body, problem } = splitFrontMatter(text);
      if (problem) problems.push(`${source}: ${problem}`);
      const description = stringField(fields, 'description') ?? firstLine(body);
      const argumentHint = stringField(fields, 'argument-hint');
      byName.set(name, { name, source, path: join(dir, rel), body, ...(description ? { description } : {}), ...(argumentHint ? { argumentHint } : {}) });
    }
  }
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
  return line?.replace(/^#+\s*/, '').trim().slice(0, 80);
}

function markdownFiles(dir: string): string[] {
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory() !== true) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.md$/i.test(name))
    .sort();
}
