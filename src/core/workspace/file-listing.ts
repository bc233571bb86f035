import type { Dirent } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { mayMatchName, type RuleEndings, ruleEndings } from './ignore-endings.js';
import type { IgnorePolicy } from './ignore-policy.js';
import { readRegularFileHead } from './regular-file.js';

/**
 * Names never listed or searched below the folder asked for: version-control internals and
 * installed packages, which are huge and never what the model wants. Naming such a folder
 * explicitly still lists it.
 */
export const ALWAYS_SKIPPED_NAMES: ReadonlySet<string> = new Set(['.git', '.hg', '.svn', 'node_modules', '__pycache__', '.venv']);

/**
 * Ignore files read in every folder, weakest first. This is ripgrep's own set, so that
 * list_files (a walk in JS) and search_files (ripgrep) agree on what exists.
 */
export const IGNORE_FILE_NAMES: readonly string[] = ['.gitignore', '.ignore', '.rgignore'];

/** What of one ignore file is read at most (1 MiB): a larger file's rules end at the last whole line before it. */
export const IGNORE_FILE_BYTES = 1024 * 1024;

/**
 * The rules text of an ignore file's bytes, cut to IGNORE_FILE_BYTES at a line end. Every reader
 * of ignore files (the listing walk, checkpoints, their restores) cuts the same way, so they agree.
 */
export function ignoreFileText(bytes: Buffer): string {
  if (bytes.length <= IGNORE_FILE_BYTES) return bytes.toString('utf8');
  const head = bytes.subarray(0, IGNORE_FILE_BYTES);
  const end = head.lastIndexOf(0x0a);
  return head.subarray(0, Math.max(end, 0)).toString('utf8');
}

/** The rules of one folder's ignore files. */
export interface IgnoreRuleSet {
  /** The folder the patterns are relative to: root-relative with '/', '' for the root. */
  readonly base: string;
  /** The rules as written (the folder's ignore files, weakest first). */
  readonly text: string;
  readonly matcher: Ignore;
  /** True when no pattern names a folder path, so a file's name alone decides (and caches well). */
  readonly byNameOnly: boolean;
  /** For a set judged by name only: the rules' literal tails, so a name no rule can match is never tested (see ignore-endings.ts). */
  readonly endings: RuleEndings | undefined;
}

/** What listWorkspaceFiles found: root-relative paths, folders ending in '/'. */
export interface FileListing {
  readonly entries: string[];
  readonly truncated: boolean;
}

/** What to list. `dir` must be `root` or inside it. */
interface ListFilesOptions {
  readonly root: string;
  readonly dir: string;
  readonly recursive: boolean;
  readonly limit: number;
  readonly ignore: IgnorePolicy;
}

/** A folder the walk reads, with the ignore rules in force inside it and the children it kept. */
interface Folder {
  readonly absolute: string;
  readonly rel: string;
  readonly rules: readonly IgnoreRuleSet[];
  readonly kept: Child[];
}

interface Child {
  /** The name's sortKey, computed once per name rather than once per comparison. */
  readonly key: string;
  readonly entry: string;
  /** Set for folders the walk may enter (not for links to folders). */
  readonly folder?: Folder;
}

/** Folders read at once; enough to hide disk latency without opening thousands of handles. */
const READ_BATCH = 32;

/**
 * Lists a folder breadth-first, so that when the limit cuts the list the top levels are the part
 * that shows; the result is then sorted like a file tree. Honours .gitignore/.ignore/.rgignore
 * files (root and nested), the IgnorePolicy and ALWAYS_SKIPPED_NAMES. Symbolic links are listed
 * but never followed.
 *
 * A JS walk rather than `rg --files`: ripgrep lists no folders, cannot stop breadth-first at a
 * limit, and with a limit the walk reads only the few folders it needs.
 */
export async function listWorkspaceFiles(options: ListFilesOptions): Promise<FileListing> {
  const { root, dir, recursive, limit, ignore: policy } = options;
  const start: Folder = { absolute: dir, rel: toRootRelative(root, dir), rules: await ancestorIgnoreRules(root, dir), kept: [] };
  let level = [start];
  let count = 0;
  let truncated = false;
  walk: while (level.length > 0) {
    const next: Folder[] = [];
    for (let i = 0; i < level.length; i += READ_BATCH) {
      const batch = level.slice(i, i + READ_BATCH);
      const children = await Promise.all(batch.map((folder) => readChildren(folder, policy)));
      for (const [j, folder] of batch.entries()) {
        for (const child of children[j]!) {
          if (count === limit) {
            truncated = true;
            break walk;
          }
          count++;
          folder.kept.push(child);
          if (child.folder) next.push(child.folder);
        }
      }
    }
    if (!recursive) break;
    level = next;
  }
  return { entries: treeOrder(start), truncated };
}

/** Renders a listing one entry per line, with a note when the limit cut it. */
export function formatListing(result: FileListing): string {
  if (result.entries.length === 0) return 'No files found.';
  const list = result.entries.join('\n');
  if (!result.truncated) return list;
  return `${list}\n\n(File list truncated at ${result.entries.length} entries. Use list_files on a subfolder to see more.)`;
}

/**
 * The ignore rules from the folders above `dir` (root down to its parent, plus the root's
 * .git/info/exclude) that apply inside it. A rule file that excludes `dir` itself is left out:
 * naming an ignored folder explicitly lists it, judged by the rules that do not exclude it.
 */
export async function ancestorIgnoreRules(root: string, dir: string): Promise<IgnoreRuleSet[]> {
  const rel = toRootRelative(root, dir);
  const sets: IgnoreRuleSet[] = [];
  const exclude = await readText(join(root, '.git', 'info', 'exclude'));
  if (exclude !== undefined) sets.push(ruleSet('', exclude));
  const parts = rel === '' ? [] : rel.split('/');
  for (let depth = 0; depth < parts.length; depth++) {
    const base = parts.slice(0, depth).join('/');
    const text = await readIgnoreFiles(join(root, ...parts.slice(0, depth)), IGNORE_FILE_NAMES);
    if (text !== undefined) sets.push(ruleSet(base, text));
  }
  if (rel === '') return sets;
  return sets.filter((set) => !set.matcher.test(`${pathUnder(set.base, rel)}/`).ignored);
}

/**
 * Rewrites rule sets as one gitignore text relative to the root, for `rg --ignore-file`
 * (which matches relative to its working directory), weakest first.
 */
export function rulesRelativeToRoot(sets: readonly IgnoreRuleSet[]): string {
  return sets
    .flatMap((set) => set.text.split(/\r?\n/).map((line) => rebaseRule(line, set.base)))
    .filter((line) => line !== '')
    .join('\n');
}

/**
 * Orders entries like a file tree: each folder before its contents, folders before files, then by
 * name. The listing's walk yields this order without comparing whole paths; this comparator states
 * it, so other listings (ripgrep's) can be checked against it.
 */
export function compareEntries(a: string, b: string): number {
  const aFolder = a.endsWith('/');
  const bFolder = b.endsWith('/');
  const aParts = (aFolder ? a.slice(0, -1) : a).split('/');
  const bParts = (bFolder ? b.slice(0, -1) : b).split('/');
  const shared = Math.min(aParts.length, bParts.length);
  for (let i = 0; i < shared; i++) {
    const x = aParts[i]!;
    const y = bParts[i]!;
    if (x === y) continue;
    const xFolder = i < aParts.length - 1 || aFolder;
    const yFolder = i < bParts.length - 1 || bFolder;
    if (xFolder !== yFolder) return xFolder ? -1 : 1;
    return compareNames(x, y);
  }
  return aParts.length - bParts.length;
}

async function readChildren(folder: Folder, policy: IgnorePolicy): Promise<Child[]> {
  let dirents: Dirent[];
  try {
    dirents = await readdir(folder.absolute, { withFileTypes: true });
  } catch {
    return []; // unreadable folders (permissions, races with deletion) are simply not listed
  }
  const present = IGNORE_FILE_NAMES.filter((name) => dirents.some((d) => d.name === name));
  const own = present.length === 0 ? undefined : await readIgnoreFiles(folder.absolute, present);
  const rules = own === undefined ? folder.rules : [...folder.rules, ruleSet(folder.rel, own)];
  const children: Child[] = [];
  // Concatenation, not path.join, because join's normalising showed up in profiles of big trees.
  const prefix = folder.absolute.endsWith(sep) ? folder.absolute : folder.absolute + sep;
  for (const dirent of dirents) {
    if (ALWAYS_SKIPPED_NAMES.has(dirent.name)) continue;
    const absolute = prefix + dirent.name;
    // Most entries know their type already; awaiting for each would cost a tick per file.
    const { isFolder, isLink } = dirent.isDirectory() || dirent.isFile() ? { isFolder: dirent.isDirectory(), isLink: false } : await kindOf(dirent, absolute);
    const rel = folder.rel === '' ? dirent.name : `${folder.rel}/${dirent.name}`;
    const verdict = judge(rules, rel, dirent.name, isFolder);
    if (verdict.excluded || policy.isIgnored(absolute)) continue;
    if (!isFolder) {
      children.push({ key: sortKey(dirent.name), entry: rel });
      continue;
    }
    // A rule file that excluded this folder (re-included by a deeper one) has no say inside it.
    const inner = verdict.overruled ? rules.filter((set) => !set.matcher.test(`${pathUnder(set.base, rel)}/`).ignored) : rules;
    children.push({ key: sortKey(dirent.name), entry: `${rel}/`, ...(isLink ? {} : { folder: { absolute, rel, rules: inner, kept: [] } }) });
  }
  return children.sort(compareSiblings);
}

/** Siblings in tree order: folders first, then by name. */
function compareSiblings(a: Child, b: Child): number {
  const aFolder = a.entry.endsWith('/');
  if (aFolder !== b.entry.endsWith('/')) return aFolder ? -1 : 1;
  return compareKeys(a.key, b.key) || compareKeys(a.entry, b.entry);
}

function compareNames(a: string, b: string): number {
  return compareKeys(sortKey(a), sortKey(b)) || compareKeys(a, b);
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const HAS_DIGIT = /\d/;

/**
 * Case-insensitive with numbers in numeric order (file2 before file10). Plain string keys, not
 * Intl.Collator, because the collator made sorting 50,000 names slower than reading them.
 */
function sortKey(name: string): string {
  const lower = name.toLowerCase();
  return HAS_DIGIT.test(lower) ? lower.replace(/\d+/g, (digits) => digits.padStart(16, '0')) : lower;
}

/** The kept entries depth-first: each folder followed by its contents (siblings are already sorted). */
function treeOrder(start: Folder): string[] {
  const entries: string[] = [];
  // An explicit stack: a deep tree must not overflow the call stack.
  const stack: Child[] = [...start.kept].reverse();
  for (let child = stack.pop(); child; child = stack.pop()) {
    entries.push(child.entry);
    if (child.folder) for (let i = child.folder.kept.length - 1; i >= 0; i--) stack.push(child.folder.kept[i]!);
  }
  return entries;
}

/**
 * Applies rule sets weakest first: the last set with an opinion decides, as in git. (Exported for
 * the checkpoint scan, which must keep exactly the files this walk lists.)
 */
export function judge(rules: readonly IgnoreRuleSet[], rel: string, name: string, isFolder: boolean): { excluded: boolean; overruled: boolean } {
  let excluded = false;
  let overruled = false;
  for (const set of rules) {
    if (set.byNameOnly && set.endings && !mayMatchName(set.endings, name)) continue;
    const result = set.matcher.test((set.byNameOnly ? name : pathUnder(set.base, rel)) + (isFolder ? '/' : ''));
    if (result.ignored) {
      excluded = true;
      overruled = true;
    } else if (result.unignored) {
      excluded = false;
    }
  }
  return { excluded, overruled: overruled && !excluded };
}

async function kindOf(dirent: Dirent, absolute: string): Promise<{ isFolder: boolean; isLink: boolean }> {
  // Links are shown as what they point to; some file systems report no type at all.
  const isLink =
    dirent.isSymbolicLink() ||
    (await lstat(absolute).then(
      (s) => s.isSymbolicLink(),
      () => false,
    ));
  const isFolder = await stat(absolute).then(
    (s) => s.isDirectory(),
    () => false,
  );
  return { isFolder, isLink };
}

export function ruleSet(base: string, text: string): IgnoreRuleSet {
  // Case-sensitive like git on Linux and like ripgrep, so list_files and search_files agree.
  const byNameOnly = text.split(/\r?\n/).every((line) => !isAnchored(line));
  return { base, text, matcher: ignore({ ignorecase: false }).add(text), byNameOnly, endings: byNameOnly ? ruleEndings(text) : undefined };
}

async function readIgnoreFiles(folder: string, names: readonly string[]): Promise<string | undefined> {
  const texts = await Promise.all(names.map((name) => readText(join(folder, name))));
  const found = texts.filter((text): text is string => text !== undefined);
  return found.length === 0 ? undefined : found.join('\n');
}

async function readText(path: string): Promise<string | undefined> {
  // One byte past the cap tells ignoreFileText to cut; a huge or endless file is never read whole.
  return readRegularFileHead(path, IGNORE_FILE_BYTES + 1).then(
    ({ bytes }) => ignoreFileText(bytes),
    () => undefined,
  );
}

/** `rel` (root-relative) as seen from `base`, which is one of its ancestors. */
export function pathUnder(base: string, rel: string): string {
  return base === '' ? rel : rel.slice(base.length + 1);
}

function toRootRelative(root: string, dir: string): string {
  const rel = relative(root, dir);
  if (rel === '..' || rel.startsWith(`..${sep}`)) throw new Error(`listWorkspaceFiles: ${dir} is not inside ${root}`);
  return rel.split(sep).join('/');
}

/** One gitignore line from a file in `base`, rewritten to mean the same relative to the root. */
function rebaseRule(line: string, base: string): string {
  const trimmed = line.replace(/(?<!\\)\s+$/, '');
  if (trimmed === '' || trimmed.startsWith('#')) return '';
  if (base === '') return trimmed;
  const negated = trimmed.startsWith('!');
  const body = negated ? trimmed.slice(1) : trimmed;
  const prefix = escapeGlob(base);
  const rebased = isAnchored(trimmed) ? `${prefix}/${body.replace(/^\/+/, '')}` : `${prefix}/**/${body}`;
  return negated ? `!${rebased}` : rebased;
}

/** A slash anywhere but the end anchors a gitignore pattern to its folder; otherwise it matches at any depth. */
function isAnchored(line: string): boolean {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return false;
  return (trimmed.startsWith('!') ? trimmed.slice(1) : trimmed).replace(/\/+$/, '').includes('/');
}

function escapeGlob(path: string): string {
  return path.replace(/[\\*?[]/g, '\\$&').replace(/^[#!]/, '\\$&');
}
