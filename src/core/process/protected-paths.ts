import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/**
 * What a sandboxed command must not write although it lies in the workspace: what runs later
 * outside the sandbox (git hooks and the config that names them, the editor's and agents'
 * settings and tasks, husky's hooks). Each workspace folder's own entries.
 */
const PROTECTED_NAMES = ['.smith', '.claude', '.vscode', '.husky'] as const;

/** How deep `.git/modules` is searched for submodules' git folders (a submodule's name may hold slashes). */
const MODULES_DEPTH = 6;

/** A protected path that cannot be kept read-only (a symbolic link could be replaced by a folder). */
export class UnprotectableError extends Error {}

/**
 * The bubblewrap arguments that keep the protected paths of the workspace's folders read-only
 * for the command, to go after the folders' own writable binds. A folder that holds protected
 * paths (`.git` and, inside git folders, `modules`) is bound onto itself, so it is a mount point:
 * it cannot be renamed or removed, which would let a command put another in its place. A missing
 * protected path is created first (an empty folder, or an empty `config` in a git folder) since
 * bubblewrap can only mount over what exists; so a command cannot create it either.
 */
export function protectedPathArguments(folders: readonly string[]): string[] {
  const args: string[] = [];
  const inWorkspace = (path: string) => folders.some((folder) => isInside(folder, path));
  for (const folder of folders) {
    for (const name of PROTECTED_NAMES) readOnly(join(folder, name), 'folder', args);
    const git = join(folder, '.git');
    const stats = entry(git);
    // No repository: none may be made (its hooks would run outside), so `.git` is an empty read-only folder.
    if (!stats) readOnly(git, 'folder', args);
    else if (stats.isDirectory()) readOnlyGitFolder(git, args);
    else if (stats.isSymbolicLink()) throw unprotectable(git);
    else {
      // A git file (a worktree's, a submodule's) names the git folder: the file itself is read-only,
      // and the folder it names is protected when it is in the workspace (elsewhere all is read-only).
      args.push('--ro-bind', git, git);
      for (const gitDir of linkedGitFolders(git)) if (inWorkspace(gitDir) && entry(gitDir)?.isDirectory()) readOnlyGitFolder(gitDir, args);
    }
  }
  return args;
}

/**
 * A git folder: itself a mount point; its hooks, its config (and `config.worktree`, which git reads
 * with extensions.worktreeConfig) read-only; its linked worktrees' folders (`worktrees/`, whose
 * `commondir` and config decide what git runs in those worktrees) read-only when there are any;
 * and its submodules' git folders likewise.
 */
function readOnlyGitFolder(gitDir: string, args: string[]): void {
  args.push('--bind', gitDir, gitDir);
  readOnly(join(gitDir, 'hooks'), 'folder', args);
  readOnly(join(gitDir, 'config'), 'file', args);
  readOnly(join(gitDir, 'config.worktree'), 'file', args);
  const worktrees = join(gitDir, 'worktrees');
  if (entry(worktrees)) readOnly(worktrees, 'folder', args);
  const modules = join(gitDir, 'modules');
  if (entry(modules)?.isDirectory()) moduleFolders(modules, MODULES_DEPTH, args);
}

/** `.git/modules/<name>`: each submodule's git folder (it has a HEAD) protected; the folders on the way are mount points. */
function moduleFolders(dir: string, depth: number, args: string[]): void {
  args.push('--bind', dir, dir);
  if (depth === 0) return;
  for (const child of readdirSync(dir, { withFileTypes: true })) {
    if (!child.isDirectory()) continue;
    const path = join(dir, child.name);
    if (entry(join(path, 'HEAD'))) readOnlyGitFolder(path, args);
    else moduleFolders(path, depth - 1, args);
  }
}

/** Keeps a path read-only, creating it (empty) first when it is missing. */
function readOnly(path: string, kind: 'folder' | 'file', args: string[]): void {
  const stats = entry(path);
  if (stats?.isSymbolicLink()) throw unprotectable(path);
  if (!stats) {
    try {
      if (kind === 'folder') mkdirSync(path);
      else closeSync(openSync(path, 'a'));
    } catch (error) {
      // Where Smith cannot create it (a read-only folder, another owner's), neither can the command.
      if (['EACCES', 'EPERM', 'EROFS'].includes((error as NodeJS.ErrnoException).code ?? '')) return;
      throw error;
    }
  }
  args.push('--ro-bind', path, path);
}

/** The git folder a git file names, and a worktree's common folder (where its hooks and config are). */
function linkedGitFolders(gitFile: string): string[] {
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(readText(gitFile));
  if (!match) return [];
  const gitDir = realOrSelf(resolve(dirname(gitFile), match[1]!));
  const common = readText(join(gitDir, 'commondir')).trim();
  return common ? [gitDir, realOrSelf(isAbsolute(common) ? common : resolve(gitDir, common))] : [gitDir];
}

function unprotectable(path: string): UnprotectableError {
  return new UnprotectableError(
    `the sandbox cannot keep ${path} read-only: it is a symbolic link, which a command could replace. Replace the link with the folder it points to, or run without --sandbox.`,
  );
}

function entry(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Whether `path` is `folder` or inside it. */
export function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
