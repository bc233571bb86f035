// A worktree's name is one path segment and the tail of its branch `smith/<name>`: whatever the
// user or the task text gives is reduced to letters, digits, `.`, `_` and `-`, so it can name
// neither another folder (`..`, `/`) nor an option (a leading `-`) nor an invalid ref.

/** The branch prefix of every worktree task. */
export const BRANCH_PREFIX = 'smith/';
/** Longest name kept (a folder name and a branch name). */
const MAX_NAME_LENGTH = 48;

/** The name `input` becomes, or '' when nothing usable is left. */
export function sanitizeWorktreeName(input: string): string {
  const name = input
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    // Anything but letters, digits, `_` and `.` separates words; `..` and `.lock` cannot survive below.
    .replace(/[^a-z0-9._]+/g, '-')
    .replace(/\.{2,}/g, '-')
    // A run of separators with a dash in it (`-.-`, `.-`) is one dash.
    .replace(/[-.]*-[-.]*/g, '-')
    .slice(0, MAX_NAME_LENGTH)
    // A ref component may not start with `.` or `-` here (an option, a hidden folder), nor end with `.`, `-` or `.lock`.
    .replace(/^[-._]+/, '')
    .replace(/(\.lock)+$/, '')
    .replace(/[-._]+$/, '');
  return name;
}

/** A name from a task's text: its first few words. */
export function nameFromTask(task: string): string {
  const words = sanitizeWorktreeName(task).split('-').filter(Boolean);
  let name = '';
  for (const word of words) {
    const next = name ? `${name}-${word}` : word;
    if (next.length > 32) break;
    name = next;
  }
  return sanitizeWorktreeName(name || words[0]?.slice(0, 32) || '');
}

/** The first of `name`, `name-2`, `name-3` … that `taken` does not hold. */
export function uniqueName(name: string, taken: (candidate: string) => boolean): string {
  if (!taken(name)) return name;
  for (let n = 2; n < 10_000; n++) {
    const candidate = `${name}-${n}`;
    if (!taken(candidate)) return candidate;
  }
  throw new Error(`no free name like ${name}`);
}
