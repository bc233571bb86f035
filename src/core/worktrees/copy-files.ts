// The untracked files a user opts into copying into a new worktree (`smith.worktree.copyFiles`:
// `.env`, `.env.local`, `config/*.local.json`), since a fresh checkout has only tracked files.
// Patterns are .gitignore lines relative to the workspace. The walk never follows a symbolic link
// (a link is reported, not copied, wherever it points), copies only regular files, within limits,
// and never writes through a link the worktree's own checkout holds.
import { type Dirent, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { ALWAYS_SKIPPED_NAMES } from '../workspace/file-listing.js';
import { readRegularFileSync } from '../workspace/regular-file.js';
import { WorktreeError } from './worktree-types.js';

/** Limits of one copy; each file over a limit is skipped and reported. */
interface CopyLimits {
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
  readonly maxFiles: number;
  /** Entries looked at before the walk stops (a huge tree). */
  readonly maxEntries: number;
}

const DEFAULT_COPY_LIMITS: CopyLimits = { maxFileBytes: 1024 * 1024, maxTotalBytes: 16 * 1024 * 1024, maxFiles: 200, maxEntries: 200_000 };

/** What was copied and what was not, with why, by workspace-relative path (`/` separated). */
export interface CopyReport {
  readonly copied: readonly string[];
  readonly skipped: readonly { readonly path: string; readonly reason: string }[];
}

/** A matcher for the patterns; throws a 'bad-copy-pattern' WorktreeError for one that could reach outside the workspace. */
export function copyPatternMatcher(patterns: readonly string[]): Ignore {
  for (const pattern of patterns) {
    const body = pattern.replace(/^!/, '');
    if (pattern.trim() === '' || pattern.includes('\0') || body.split(/[\\/]/).some((part) => part === '..') || body.startsWith('~')) {
      throw new WorktreeError('bad-copy-pattern', `The copy pattern "${pattern}" is not a path inside the workspace (no "..", "~" or empty patterns).`);
    }
  }
  return ignore().add([...patterns]);
}

/** Copies the files of `from` (the workspace) matching `patterns` to the same paths under `to` (its place in the new worktree). */
export function copyOptInFiles(from: string, to: string, patterns: readonly string[], limits: CopyLimits = DEFAULT_COPY_LIMITS): CopyReport {
  if (patterns.length === 0) return { copied: [], skipped: [] };
  const matcher = copyPatternMatcher(patterns);
  const copied: string[] = [];
  const skipped: { path: string; reason: string }[] = [];
  let total = 0;
  let entries = 0;
  const walk = (rel: string): void => {
    let children: Dirent[];
    try {
      children = readdirSync(rel ? join(from, rel) : from, { withFileTypes: true });
    } catch {
      return;
    }
    for (const child of children) {
      if (++entries > limits.maxEntries) return;
      const path = rel ? posix.join(rel, child.name) : child.name;
      if (child.isDirectory()) {
        if (!ALWAYS_SKIPPED_NAMES.has(child.name)) walk(path);
        continue;
      }
      if (!matcher.ignores(path)) continue;
      if (child.isSymbolicLink()) {
        skipped.push({ path, reason: 'a symbolic link (links are not followed)' });
        continue;
      }
      if (!child.isFile()) {
        skipped.push({ path, reason: 'not a regular file' });
        continue;
      }
      let reason: number | string;
      try {
        reason = copyOne(from, to, path, limits, total, copied.length);
      } catch (error) {
        // The worktree exists by now: a file that cannot be copied is reported, never an error that hides it.
        reason = `not copied: ${(error as Error).message}`;
      }
      if (typeof reason === 'string') skipped.push({ path, reason });
      else {
        copied.push(path);
        total += reason;
      }
    }
  };
  walk('');
  if (entries > limits.maxEntries) skipped.push({ path: '.', reason: `the walk stopped after ${limits.maxEntries} entries` });
  return { copied, skipped };
}

/** Copies one file; its size when copied, else why not. */
function copyOne(from: string, to: string, rel: string, limits: CopyLimits, total: number, count: number): number | string {
  if (count >= limits.maxFiles) return `more than ${limits.maxFiles} files match`;
  const source = join(from, rel);
  const size = lstatSync(source).size;
  if (size > limits.maxFileBytes) return `larger than ${limits.maxFileBytes} bytes`;
  if (total + size > limits.maxTotalBytes) return `the copied files would pass ${limits.maxTotalBytes} bytes`;
  const parts = rel.split('/');
  let folder = to;
  for (const part of parts.slice(0, -1)) {
    folder = join(folder, part);
    const stats = lstatOrUndefined(folder);
    if (!stats) mkdirSync(folder);
    else if (!stats.isDirectory()) return `${part} is not a folder in the worktree (a link or a file there is not written through)`;
  }
  const target = join(folder, parts.at(-1)!);
  if (lstatOrUndefined(target)) return 'the worktree has its own (tracked) copy';
  let bytes: Buffer;
  let mode: number;
  try {
    bytes = readRegularFileSync(source);
    mode = lstatSync(source).mode & 0o777;
  } catch (error) {
    return `unreadable: ${(error as Error).message}`;
  }
  if (bytes.length > limits.maxFileBytes) return `larger than ${limits.maxFileBytes} bytes`;
  // `wx`: fails if anything, a link included, appeared at the target since.
  writeFileSync(target, bytes, { flag: 'wx', mode });
  return bytes.length;
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
