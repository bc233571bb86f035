import { toLf } from './text-format.js';

/** One SEARCH/REPLACE block of a replace_in_file diff, as lines without their newlines. */
export interface DiffBlock {
  readonly search: readonly string[];
  readonly replace: readonly string[];
  /** Roo Code's `:start_line:N` hint (1-based), used to pick between equal candidates. */
  readonly startLine?: number;
}

/** The blocks of a diff, or why the diff could not be read. */
export type ParsedDiff =
  | { readonly ok: true; readonly blocks: readonly DiffBlock[] }
  | { readonly ok: false; readonly error: string };

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
        return malformed(
          `line ${lineNo} opens a new SEARCH while the block opened at line ${state.openedAt} has no ======= line yet`,
        );
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
      return malformed(
        `line ${lineNo} opens a new SEARCH while the block opened at line ${state.openedAt} is not closed with +++++++ REPLACE`,
      );
    }
    // A second ======= inside REPLACE is kept as text: Markdown headings and merge notes use it.
    state.block.replace.push(unescapeMarker(raw));
  }
  if (state.kind === 'search') {
    return malformed(`the block opened at line ${state.openedAt} ends without a ======= line and a REPLACE part`);
  }
  if (state.kind === 'replace') {
    return malformed(`the block opened at line ${state.openedAt} is not closed with a +++++++ REPLACE line`);
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

/** Roo lets models escape a content line that looks like a marker with a leading backslash. */
function unescapeMarker(line: string): string {
  const trimmed = line.trimStart();
  if (!trimmed.startsWith('\\')) return line;
  const rest = trimmed.slice(1).trim();
  if (SEARCH_MARKER.test(rest) || DIVIDER.test(rest) || REPLACE_MARKER.test(rest) || /^-{3,}$/.test(rest)) {
    return line.slice(0, line.length - trimmed.length) + trimmed.slice(1);
  }
  return line;
}

function malformed(reason: string): ParsedDiff {
  return { ok: false, error: `The diff is malformed: ${reason}.\n${DIFF_FORMAT_HELP}` };
}
