import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALWAYS_SKIPPED_NAMES } from '../workspace/file-listing.js';

/** Matches returned by default before the search stops and says so. */
export const DEFAULT_MAX_MATCHES = 300;

/** Longer lines (minified code) are cut to a window around the match. */
export const MAX_LINE_LENGTH = 300;

/** Formatted results stop growing past this many characters. */
const MAX_OUTPUT_CHARS = 50_000;

/** One line of a result: a match or a context line around one. */
interface SearchLine {
  readonly line: number;
  readonly text: string;
  readonly isMatch: boolean;
}

/** The matching lines of one file with their context, in line order. */
export interface SearchFileGroup {
  readonly path: string;
  readonly lines: SearchLine[];
}

/** What a search found; `truncated` when it stopped at `maxMatches`. */
export interface SearchResult {
  readonly groups: SearchFileGroup[];
  readonly matchCount: number;
  readonly truncated: boolean;
  readonly maxMatches: number;
}

/** One ripgrep search. Paths (in and out) are relative to `cwd`. */
export interface RipgrepSearchOptions {
  readonly rgPath: string;
  readonly cwd: string;
  /** File or folder to search, relative to cwd ('.' for cwd itself). */
  readonly target: string;
  /** Rust regex syntax. */
  readonly regex: string;
  readonly contextLines?: number;
  readonly maxMatches?: number;
  /** A file-name glob such as `*.ts` or `*.{ts,tsx}`; unlike `--glob`, it cannot override ignore files. */
  readonly fileNamePattern?: string;
  /** Extra gitignore rules relative to cwd, weakest of all (ripgrep's --ignore-file). */
  readonly extraIgnoreRules?: string;
  /** Keeps only the files it accepts; dropped files do not count towards the cap. */
  readonly include?: (path: string) => boolean;
  readonly signal: AbortSignal;
}

/** ripgrep refused the search; `invalidInput` when the regex or pattern was at fault. */
export class RipgrepError extends Error {
  constructor(
    message: string,
    readonly invalidInput: boolean,
  ) {
    super(message);
    this.name = 'RipgrepError';
  }
}

/**
 * Runs ripgrep with --json and groups the matches by file. Stops (and kills rg) once
 * maxMatches is reached; rejects with the signal's reason when aborted.
 */
export async function searchWithRipgrep(options: RipgrepSearchOptions): Promise<SearchResult> {
  return withIgnoreFile(options, (ignoreFile) => run(options, ripgrepArgs(options, ignoreFile)));
}

/** Which files a search would read: the same walk and filters (ignore files, file pattern, `include`), no file opened. */
export type RipgrepListOptions = Omit<RipgrepSearchOptions, 'regex' | 'contextLines' | 'maxMatches'>;

/**
 * Lists the files searchWithRipgrep would search, each path (relative to cwd) given to `onFile`
 * as it comes, so a huge tree is never held in memory.
 */
export async function listFilesWithRipgrep(options: RipgrepListOptions, onFile: (path: string) => void): Promise<void> {
  return withIgnoreFile(options, (ignoreFile) => runListing(options, [...walkArgs(options, ignoreFile), '--files', '--null', '--', options.target], onFile));
}

async function withIgnoreFile<T>(options: RipgrepListOptions, body: (ignoreFile: string | undefined) => Promise<T>): Promise<T> {
  options.signal.throwIfAborted();
  const tempDir = options.extraIgnoreRules ? await mkdtemp(join(tmpdir(), 'smith-rg-')) : undefined;
  try {
    const ignoreFile = tempDir ? join(tempDir, 'ignore') : undefined;
    if (ignoreFile) await writeFile(ignoreFile, options.extraIgnoreRules!);
    return await body(ignoreFile);
  } finally {
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  }
}

/** The results as the model reads them, and whether the character cap left files out (`cut`). */
export function renderSearchResults(result: SearchResult): { readonly text: string; readonly cut: boolean } {
  if (result.matchCount === 0) return { text: 'Found 0 results.', cut: false };
  const header = result.truncated
    ? `Found more than ${result.maxMatches} results; showing the first ${result.maxMatches}.`
    : `Found ${result.matchCount} result${result.matchCount === 1 ? '' : 's'}.`;
  const out: string[] = [header];
  let size = header.length;
  let cut = false;
  for (const group of result.groups) {
    const width = String(group.lines.at(-1)?.line ?? 0).length;
    const block = [`\n${group.path}`];
    group.lines.forEach((line, i) => {
      if (i > 0 && line.line !== group.lines[i - 1]!.line + 1) block.push('----');
      block.push(`${String(line.line).padStart(width, ' ')} | ${line.text}`);
    });
    const text = block.join('\n');
    if (size + text.length > MAX_OUTPUT_CHARS && out.length > 1) {
      cut = true;
      break;
    }
    out.push(text);
    size += text.length;
  }
  if (result.truncated || cut) {
    out.push(`\n(Results cut short${cut ? ` at ${MAX_OUTPUT_CHARS} characters` : ''}. Use a more specific regex, path or file_pattern to narrow the search.)`);
  }
  return { text: out.join('\n'), cut };
}

function ripgrepArgs(options: RipgrepSearchOptions, ignoreFile: string | undefined): string[] {
  return [...walkArgs(options, ignoreFile), '--json', '--context', String(options.contextLines ?? 1), '--regexp', options.regex, '--', options.target];
}

/** Which files ripgrep walks: the same for a search and for listing what it would search. */
function walkArgs(options: RipgrepListOptions, ignoreFile: string | undefined): string[] {
  const args = [
    '--no-config', // a user's RIPGREP_CONFIG_PATH must not change what the model sees
    '--hidden',
    // The workspace's own ignore files apply, git repo or not; nothing above it or global does.
    '--no-require-git',
    '--no-ignore-parent',
    '--no-ignore-global',
    '--sort',
    'path',
  ];
  for (const name of ALWAYS_SKIPPED_NAMES) args.push('--glob', `!${name}`);
  if (options.fileNamePattern) {
    // A file type instead of --glob: ripgrep lets --glob override .gitignore, but not a type.
    args.push('--type-add', `smithpattern:${options.fileNamePattern}`, '--type', 'smithpattern');
  }
  if (ignoreFile) args.push('--ignore-file', ignoreFile);
  return args;
}

function runListing(options: RipgrepListOptions, args: string[], onFile: (path: string) => void): Promise<void> {
  return runRipgrep(
    options,
    args,
    '\0',
    (raw) => {
      const path = normalisePath(raw);
      if (path !== '' && (options.include === undefined || options.include(path))) onFile(path);
    },
    ({ code, signal, message }) => {
      if (code === 2 && INVALID_INPUT.test(message)) throw new RipgrepError(message, true);
      // 1: no file at all; 2 without a bad input: some files could not be read, the rest were listed.
      if (code === 0 || code === 1 || code === 2) return;
      throw new RipgrepError(`ripgrep failed (${signal ?? `exit code ${code}`}): ${message}`, false);
    },
  );
}

/** How a ripgrep process ended, for the caller to turn into its result or error. */
interface RipgrepExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** ripgrep's stderr, cleaned for a message. */
  readonly message: string;
  /** The caller stopped it early (enough was found). */
  readonly stopped: boolean;
}

/**
 * Runs ripgrep once: its stdout split into records at `separator` and given to `onRecord` (which
 * may call `stop` when it has enough), its stderr kept for messages, an abort or a record that
 * threw reported once ripgrep has exited, and `finish` deciding the result from how it ended.
 */
function runRipgrep<T>(
  options: { readonly rgPath: string; readonly cwd: string; readonly signal: AbortSignal },
  args: string[],
  separator: string,
  onRecord: (record: string, stop: () => void) => void,
  finish: (exit: RipgrepExit) => T,
): Promise<T> {
  return new Promise<T>((resolvePromise, reject) => {
    const child = spawn(options.rgPath, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let stopped = false;
    let failure: unknown;
    let stderr = '';
    let pending = '';
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      child.kill();
    };
    options.signal.addEventListener('abort', stop, { once: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      const records = (pending + chunk).split(separator);
      pending = records.pop()!;
      try {
        for (const record of records) {
          if (stopped) return;
          onRecord(record, stop);
        }
      } catch (error) {
        failure = error; // e.g. an include callback that threw; reported once rg has exited
        stop();
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 8192) stderr += chunk;
    });
    child.on('error', (error) => {
      options.signal.removeEventListener('abort', stop);
      reject(new RipgrepError(`Could not run ripgrep at ${options.rgPath}: ${error.message}`, false));
    });
    child.on('close', (code, signal) => {
      options.signal.removeEventListener('abort', stop);
      if (options.signal.aborted) return reject(options.signal.reason);
      if (failure !== undefined) return reject(failure);
      try {
        resolvePromise(finish({ code, signal, message: cleanMessage(stderr), stopped }));
      } catch (error) {
        reject(error);
      }
    });
  });
}

interface RgEvent {
  readonly type: string;
  readonly data?: {
    readonly path?: RgText;
    readonly lines?: RgText;
    readonly line_number?: number;
    readonly submatches?: readonly { readonly start: number }[];
  };
}

interface RgText {
  readonly text?: string;
  readonly bytes?: string;
}

function run(options: RipgrepSearchOptions, args: string[]): Promise<SearchResult> {
  const maxMatches = options.maxMatches ?? DEFAULT_MAX_MATCHES;
  const contextLines = options.contextLines ?? 1;
  const groups: SearchFileGroup[] = [];
  let current: SearchFileGroup | undefined;
  let skipping = false;
  let matchCount = 0;
  let truncated = false;

  const handle = (event: RgEvent, stop: () => void): void => {
    const data = event.data;
    if (event.type === 'begin') {
      const path = normalisePath(decode(data?.path));
      skipping = options.include !== undefined && !options.include(path);
      current = skipping ? undefined : { path, lines: [] };
      if (current) groups.push(current);
    } else if ((event.type === 'match' || event.type === 'context') && current && !skipping) {
      const isMatch = event.type === 'match';
      if (isMatch && matchCount === maxMatches) {
        truncated = true;
        stop();
        return;
      }
      if (isMatch) matchCount++;
      const text = clipLine(decode(data?.lines).replace(/\r?\n$/, ''), isMatch ? data?.submatches?.[0]?.start : undefined);
      current.lines.push({ line: data?.line_number ?? 0, text, isMatch });
    }
  };

  return runRipgrep(
    options,
    args,
    '\n',
    (line, stop) => {
      if (line.trim() !== '') handle(parseEvent(line), stop);
    },
    ({ code, signal, message, stopped }) => {
      if (truncated) trimAfterLastMatch(groups, contextLines);
      const result: SearchResult = { groups: groups.filter((g) => g.lines.some((l) => l.isMatch)), matchCount, truncated, maxMatches };
      if (stopped || code === 0 || code === 1) return result;
      if (code === 2 && INVALID_INPUT.test(message)) throw new RipgrepError(message, true);
      // Exit code 2 also means "some files could not be read"; what was found still counts.
      if (code === 2) return result;
      throw new RipgrepError(`ripgrep failed (${signal ?? `exit code ${code}`}): ${message}`, false);
    },
  );
}

function parseEvent(line: string): RgEvent {
  try {
    return JSON.parse(line) as RgEvent;
  } catch {
    return { type: 'unparsable' }; // never expected from --json; skipping beats crashing the search
  }
}

const INVALID_INPUT = /regex parse error|not allowed in a regex|error parsing glob|unrecognized file type|size limit/i;

/** After the cap, drop context lines that belong to the first match not shown. */
export function trimAfterLastMatch(groups: SearchFileGroup[], contextLines: number): void {
  const last = groups.at(-1);
  if (!last) return;
  const lastMatch = [...last.lines].reverse().find((l) => l.isMatch);
  if (!lastMatch) return;
  while (last.lines.at(-1)!.line > lastMatch.line + contextLines) last.lines.pop();
}

function decode(value: RgText | undefined): string {
  if (!value) return '';
  return value.text ?? Buffer.from(value.bytes ?? '', 'base64').toString('utf8');
}

function normalisePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '');
}

/** Keeps long lines readable: a window around the match instead of kilobytes of minified code. */
export function clipLine(text: string, matchByteOffset: number | undefined): string {
  if (text.length <= MAX_LINE_LENGTH) return text;
  const matchAt = matchByteOffset === undefined ? 0 : Buffer.from(text).subarray(0, matchByteOffset).toString('utf8').length;
  const start = Math.max(0, Math.min(matchAt - 100, text.length - MAX_LINE_LENGTH));
  const end = start + MAX_LINE_LENGTH;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? ' …[line truncated]' : ''}`;
}

/** rg's own advice (e.g. to pass --pcre2) is about flags the model cannot set. */
function cleanMessage(stderr: string): string {
  return stderr.replace(/\n*Consider enabling PCRE2[\s\S]*$/, '').trim();
}
