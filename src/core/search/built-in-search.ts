import { createReadStream } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import ignore from 'ignore';
import { listWorkspaceFiles } from '../workspace/file-listing.js';
import { NOTHING_IGNORED } from '../workspace/ignore-policy.js';
import {
  clipLine,
  DEFAULT_MAX_MATCHES,
  RipgrepError,
  trimAfterLastMatch,
  type RipgrepListOptions,
  type RipgrepSearchOptions,
  type SearchFileGroup,
  type SearchResult,
} from './ripgrep.js';
import { compileRustRegex } from './rust-regex.js';

/** A search without ripgrep: the options of searchWithRipgrep except the binary. */
type BuiltInSearchOptions = Omit<RipgrepSearchOptions, 'rgPath'>;

/** Which files a built-in search reads. */
type BuiltInListOptions = Omit<RipgrepListOptions, 'rgPath'>;

/**
 * searchWithRipgrep's results without ripgrep, for machines that have none: the files come from
 * the walk list_files uses (the same ignore files, .git/info/exclude, always-skipped names), in
 * ripgrep's `--sort path` order; symbolic links met in the walk are skipped and a file with a NUL
 * byte stops being searched, as ripgrep does; the same line clipping, context and cap.
 */
export async function searchBuiltIn(options: BuiltInSearchOptions): Promise<SearchResult> {
  options.signal.throwIfAborted();
  const regex = compileRustRegex(options.regex);
  const maxMatches = options.maxMatches ?? DEFAULT_MAX_MATCHES;
  const contextLines = options.contextLines ?? 1;
  const groups: SearchFileGroup[] = [];
  let matchCount = 0;
  let truncated = false;
  await eachFile(options, async (path, walked) => {
    if (truncated) return false;
    const group: SearchFileGroup = { path, lines: [] };
    const outcome = await searchFile(
      join(options.cwd, path),
      regex,
      contextLines,
      walked,
      group,
      () => {
        if (matchCount === maxMatches) {
          truncated = true;
          return false;
        }
        matchCount++;
        return true;
      },
      options.signal,
    );
    if (group.lines.length > 0) groups.push(group);
    return outcome;
  });
  if (truncated) trimAfterLastMatch(groups, contextLines);
  return { groups: groups.filter((g) => g.lines.some((l) => l.isMatch)), matchCount, truncated, maxMatches };
}

/** listFilesWithRipgrep without ripgrep: the files searchBuiltIn would read, in the same order. */
export async function listFilesBuiltIn(options: BuiltInListOptions, onFile: (path: string) => void): Promise<void> {
  options.signal.throwIfAborted();
  await eachFile(options, async (path) => {
    onFile(path);
    return true;
  });
}

/** Calls `visit` for each file to search (cwd-relative, '/'), until it returns false. */
async function eachFile(options: BuiltInListOptions, visit: (path: string, walked: boolean) => Promise<boolean>): Promise<void> {
  const target = resolve(options.cwd, options.target);
  const info = await stat(target).catch(() => undefined);
  if (!info) throw new RipgrepError(`${options.target}: No such file or directory`, false);
  if (!info.isDirectory()) {
    // A file named explicitly is searched whatever the ignore files say, as ripgrep does.
    const path = normalise(options.target);
    if (options.include === undefined || options.include(path)) await visit(path, false);
    return;
  }
  const names = options.fileNamePattern ? fileNameMatcher(options.fileNamePattern) : undefined;
  // The walk reads the ignore rules above the target itself (the ones `extraIgnoreRules` carries for ripgrep).
  const listing = await listWorkspaceFiles({ root: options.cwd, dir: target, recursive: true, limit: Number.POSITIVE_INFINITY, ignore: NOTHING_IGNORED });
  const files = listing.entries.filter((entry) => !entry.endsWith('/')).sort(comparePaths);
  for (const path of files) {
    options.signal.throwIfAborted();
    if (names && !names(path.slice(path.lastIndexOf('/') + 1))) continue;
    // ripgrep does not follow links while walking; the walk lists them as what they point to.
    if ((await lstat(join(options.cwd, path)).catch(() => undefined))?.isSymbolicLink() !== false) continue;
    if (options.include !== undefined && !options.include(path)) continue;
    if (!(await visit(path, true))) return;
  }
}

/**
 * Reads one file line by line, adding matches and their context to `group`. `take` is asked before
 * each match is added; false stops the whole search. Returns false when the search must stop.
 */
async function searchFile(
  absolute: string,
  regex: RegExp,
  contextLines: number,
  walked: boolean,
  group: SearchFileGroup,
  take: () => boolean,
  signal: AbortSignal,
): Promise<boolean> {
  const before: { line: number; text: string }[] = [];
  let after = 0;
  let lineNumber = 0;
  let pending: Buffer = Buffer.alloc(0);
  const onLine = (raw: Buffer): boolean => {
    lineNumber++;
    const text = raw.toString('utf8');
    regex.lastIndex = 0;
    const found = regex.exec(text);
    if (!found) {
      if (after > 0) {
        after--;
        group.lines.push({ line: lineNumber, text: clipLine(stripCr(text), undefined), isMatch: false });
      } else if (contextLines > 0) {
        before.push({ line: lineNumber, text });
        if (before.length > contextLines) before.shift();
      }
      return true;
    }
    if (!take()) return false;
    for (const line of before) group.lines.push({ line: line.line, text: clipLine(stripCr(line.text), undefined), isMatch: false });
    before.length = 0;
    group.lines.push({ line: lineNumber, text: clipLine(stripCr(text), Buffer.byteLength(text.slice(0, found.index))), isMatch: true });
    after = contextLines;
    return true;
  };
  const stream = createReadStream(absolute);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      signal.throwIfAborted();
      // A NUL byte marks a binary file: ripgrep stops searching one it walked into there.
      if (walked && chunk.includes(0)) return true;
      let data = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      for (let newline = data.indexOf(10); newline !== -1; newline = data.indexOf(10)) {
        if (!onLine(data.subarray(0, newline))) return false;
        data = data.subarray(newline + 1);
      }
      pending = Buffer.from(data);
    }
    if (pending.length > 0) return onLine(pending);
    return true;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    // An unreadable file is skipped, as ripgrep skips it (with a message on its stderr).
    if ((error as NodeJS.ErrnoException).code !== undefined) return true;
    throw error;
  } finally {
    stream.destroy();
  }
}

function stripCr(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

/**
 * ripgrep's `--sort path`: each folder's entries by name, byte order, depth first; that is, paths
 * compared one component at a time.
 */
function comparePaths(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return Buffer.compare(Buffer.from(x[i]!), Buffer.from(y[i]!));
  }
  return x.length - y.length;
}

/** A file-name glob (ripgrep's `--type-add name:GLOB`), braces included, matched against a base name. */
function fileNameMatcher(glob: string): (name: string) => boolean {
  const matcher = ignore({ ignorecase: false }).add(expandBraces(glob));
  return (name) => matcher.ignores(name);
}

/** `*.{ts,tsx}` → `*.ts`, `*.tsx` (nested and repeated braces too). */
function expandBraces(glob: string): string[] {
  const match = /\{([^{}]*)\}/.exec(glob);
  if (!match) return [glob];
  const head = glob.slice(0, match.index);
  const tail = glob.slice(match.index + match[0].length);
  return match[1]!.split(',').flatMap((choice) => expandBraces(head + choice + tail));
}

function normalise(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '');
}
