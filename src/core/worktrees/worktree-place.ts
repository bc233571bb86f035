// Where worktrees are made: `<parent>/<repository name>/<name>`, the parent by default a hidden
// `.smith-worktrees` folder beside the repository. Beside rather than in Smith's storage: on the
// same disk as the repository (a checkout there is a local copy), easy to find and open in the
// editor, and the relative paths a build uses to reach sibling folders keep working. Never inside
// the workspace (its file watchers, searches and checkpoints would take the worktree in) nor inside
// a git folder or another worktree of the repository; a parent the user names is checked with its
// symbolic links resolved.
import { lstatSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { isInside } from '../workspace/contained-files.js';
import type { RepositoryFacts } from './repository.js';
import { WorktreeError } from './worktree-types.js';

/** The default parent's name, beside the repository's top folder. */
const DEFAULT_PARENT_NAME = '.smith-worktrees';

/**
 * The folder that holds this repository's worktrees, links resolved: `<parent>/<repository name>`.
 * `others` are the folders of the repository's existing worktrees. Throws a 'bad-parent' WorktreeError
 * for a parent that is relative, or lands inside the workspace, the repository, a git folder or a worktree.
 */
export function worktreesFolder(repo: RepositoryFacts, parentSetting: string | undefined, others: readonly string[]): string {
  const given = parentSetting?.trim() ?? '';
  let parent: string;
  if (given === '') parent = join(dirname(repo.top), DEFAULT_PARENT_NAME);
  else if (given === '~' || given.startsWith('~/')) parent = join(homedir(), given.slice(1));
  else if (isAbsolute(given)) parent = given;
  else throw new WorktreeError('bad-parent', `The worktree folder "${given}" must be an absolute path (or start with ~/).`);
  const folder = realPathOf(join(parent, basename(repo.top)));
  checkOutside(folder, repo, others, given === '' ? 'The default worktree folder' : `The worktree folder ${given}`);
  return folder;
}

/** Refuses a worktree folder inside the workspace, the repository, its git folders or one of its worktrees. */
export function checkOutside(folder: string, repo: RepositoryFacts, others: readonly string[], label: string): void {
  const forbidden: [string, string][] = [
    [repo.workspace, 'the workspace'],
    [repo.top, 'the repository'],
    [repo.commonDir, 'the git folder'],
    [repo.gitDir, 'the git folder'],
    ...others.map((path): [string, string] => [path, `the worktree ${path}`]),
  ];
  // The innermost place it is in names the problem best (the git folder rather than the workspace around it).
  const within = forbidden.filter(([place]) => isInside(folder, place)).sort((a, b) => b[0].length - a[0].length);
  const innermost = within[0];
  if (innermost) {
    const [place, what] = innermost;
    throw new WorktreeError(
      'bad-parent',
      `${label} resolves to ${folder}, which is inside ${what} (${place}): worktrees must be made outside it. Set smith.worktree.parent to a folder elsewhere.`,
    );
  }
}

/**
 * The absolute path `path` names once every symbolic link of its longest existing ancestor is
 * resolved; the rest does not exist yet, so it cannot be a link (`..` is resolved by name first).
 */
export function realPathOf(path: string): string {
  const absolute = resolve(path);
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      lstatSync(existing);
      break;
    } catch {
      const up = dirname(existing);
      if (up === existing) break;
      rest.unshift(basename(existing));
      existing = up;
    }
  }
  return join(realpathSync(existing), ...rest);
}
