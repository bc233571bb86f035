import { toLf } from './text-format.js';

/** One SEARCH/REPLACE block of a replace_in_file diff, as lines without their newlines. */
export interface DiffBlock {
  readonly search: readonly string[];
  readonly replace: readonly string[];
  /** Roo Code's `:start_line:N` hint (1-based), used to pick between equal candidates. */
  readonly startLine?: number;
}

/** The blocks of a diff, or why the diff could not be read. */
type ParsedDiff = { readonly ok: true; readonly blocks: readonly DiffBlock[] } | { readonly ok: false; readonly error: string };

// Cline writes `------- SEARCH` / `+++++++ REPLACE`, Roo and older prompts `<<<<<<< SEARCH` /
// `>>>>>>> REPLACE`; models vary the marker length and sometimes leave a stray `>` behind.
const SEARCH_MARKER = /^(?:-{3,}|<{3,}) ?SEARCH>?$/;
const DIVIDER = /^={3,}>?$/;
const REPLACE_MARKER = /^(?:\+{3,}|>{3,}) ?REPLACE>?$/;
const START_LINE_HINT = /^:start_line:\s*(\d+)\s*$/;
const END_LINE_HINT = /^:end_line:\s*(\d+)\s*$/;
// After a hint Roo always writes a dash line; without one, demand a long run so a SEARCH that
// starts with YAML front matter (`---`) keeps its first line.
const SEPARATOR_AFTER_HINT = /^-{3,}$/;
const SEPARATOR_ALONE = /^-{5,}$/;
// Inside REPLACE these lines can only be markers that went astray (a forgotten REPLACE marker and
// the next block's preamble, or a separator in the wrong place), so they are refused rather than
// written. Shorter dash lines are content: YAML's `---`, Markdown rules. A 7+ dash line that the
// SEARCH part also has (an underline copied from the file) is content too.
const REPLACE_SEPARATOR = /^-{7,}$/;
/** The exact format models must follow, repeated in every syntax error. */
export const DIFF_FORMAT_HELP = [
  'Each change must be one block in exactly this format, every marker on a line of its own:',
  '------- SEARCH',
  '[exact lines copied from the current file]',
  '=======',
  '[the new lines that replace them]',
  '+++++++ REPLACE',
  'Several blocks may follow one another, in the order they appear in the file.',
  "Roo Code's form is accepted too: <<<<<<< SEARCH, an optional :start_line:N line and a ------- line, =======, >>>>>>> REPLACE.",
].join('\n');

type State =
  | { readonly kind: 'outside' }
  | { readonly kind: 'search'; readonly openedAt: number; readonly block: MutableBlock }
  | { readonly kind: 'replace'; readonly openedAt: number; readonly block: MutableBlock };

interface MutableBlock {
  search: string[];
  replace: string[];
  startLine?: number;
  /** True until the first SEARCH content line, while hint and separator lines may still come. */
  inPreamble: boolean;
}

/** Reads the SEARCH/REPLACE blocks of a diff in either dialect, LF or CRLF. */
export function parseDiffBlocks(diff: string): ParsedDiff {
  const lines = toLf(diff).split('\n');
  // A final newline ends the last line; it does not start an empty one.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const blocks: DiffBlock[] = [];
  let state: State = { kind: 'outside' };
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!;
    const marker = raw.trim();
    const lineNo = index + 1;
    if (state.kind === 'outside') {
      if (SEARCH_MARKER.test(marker)) {
        state = { kind: 'search', openedAt: lineNo, block: { search: [], replace: [], inPreamble: true } };
      } else if (DIVIDER.test(marker) || REPLACE_MARKER.test(marker)) {
        return malformed(`line ${lineNo} ("${marker}") comes before any SEARCH marker`);
      }
      // Anything else outside a block (prose, code fences) is ignored.
      continue;
    }
    if (state.kind === 'search') {
      const block: MutableBlock = state.block;
      if (SEARCH_MARKER.test(marker)) {
        return malformed(`line ${lineNo} opens a new SEARCH while the block opened at line ${state.openedAt} has no ======= line yet`);
      }
      if (REPLACE_MARKER.test(marker)) {
        return malformed(
          `line ${lineNo} closes the block opened at line ${state.openedAt} with REPLACE, but the ======= line between SEARCH and REPLACE is missing`,
        );
      }
      if (DIVIDER.test(marker)) {
        state = { kind: 'replace', openedAt: state.openedAt, block };
        continue;
      }
      if (block.inPreamble && readPreamble(block, marker)) continue;
      block.inPreamble = false;
      block.search.push(unescapeMarker(raw));
      continue;
    }
    if (REPLACE_MARKER.test(marker)) {
      const { search, replace, startLine } = state.block;
      blocks.push(startLine === undefined ? { search, replace } : { search, replace, startLine });
      state = { kind: 'outside' };
      continue;
    }
    if (SEARCH_MARKER.test(marker)) {
      return malformed(`line ${lineNo} opens a new SEARCH while the block opened at line ${state.openedAt} is not closed with +++++++ REPLACE`);
    }
    if (isStrayMarker(marker, state.block.search)) {
      return malformed(
        `line ${lineNo} ("${marker}") is in the REPLACE part of the block opened at line ${state.openedAt}, but it is a marker, not content: :start_line:/:end_line: hints and the ------- separator belong right after <<<<<<< SEARCH, and each block must be closed with its REPLACE marker before the next one starts. If the line really is new text, escape it with a backslash (\\${marker})`,
      );
    }
    // A second ======= inside REPLACE is kept as text: Markdown headings and merge notes use it.
    state.block.replace.push(unescapeMarker(raw));
  }
  if (state.kind === 'search') {
    return malformed(`the block opened at line ${state.openedAt} ends without a ======= line and a REPLACE part`);
  }
  // The diff ends inside the last REPLACE part: the closing marker can only have been forgotten.
  if (state.kind === 'replace') {
    const { search, replace, startLine } = state.block;
    blocks.push(startLine === undefined ? { search, replace } : { search, replace, startLine });
  }
  if (blocks.length === 0) return malformed('it contains no SEARCH/REPLACE block');
  return { ok: true, blocks };
}

/** Consumes Roo's `:start_line:` / `:end_line:` hints and dash separator right after SEARCH. */
function readPreamble(block: MutableBlock, marker: string): boolean {
  const hint = START_LINE_HINT.exec(marker);
  if (hint && block.startLine === undefined) {
    block.startLine = Number(hint[1]);
    return true;
  }
  if (END_LINE_HINT.test(marker)) return true;
  const separator = block.startLine === undefined ? SEPARATOR_ALONE : SEPARATOR_AFTER_HINT;
  if (separator.test(marker)) {
    block.inPreamble = false;
    return true;
  }
  return false;
}

/** True for a REPLACE line that can only be a marker: a hint, or a long dash line SEARCH lacks. */
function isStrayMarker(marker: string, search: readonly string[]): boolean {
  if (START_LINE_HINT.test(marker) || END_LINE_HINT.test(marker)) return true;
  return REPLACE_SEPARATOR.test(marker) && !search.some((line) => line.trim() === marker);
}

/** Roo lets models escape a content line that looks like a marker with a leading backslash. */
function unescapeMarker(line: string): string {
  const trimmed = line.trimStart();
  if (!trimmed.startsWith('\\')) return line;
  const rest = trimmed.slice(1).trim();
  const looksLikeMarker = [SEARCH_MARKER, DIVIDER, REPLACE_MARKER, /^-{3,}$/, START_LINE_HINT, END_LINE_HINT].some((pattern) => pattern.test(rest));
  if (looksLikeMarker) {
    return line.slice(0, line.length - trimmed.length) + trimmed.slice(1);
  }
  return line;
}

function malformed(reason: string): ParsedDiff {
  return { ok: false, error: `The diff is malformed: ${reason}.\n${DIFF_FORMAT_HELP}` };
}
