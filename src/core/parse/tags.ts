// Tag matching shared by the tool-block parser and its raw-parameter scanner.

/** No tag starts here. */
export const NO_TAG = 0;
/** The input ends inside something that may still become a tag. */
export const MAYBE_TAG = 1;
/** A matched tag, or NO_TAG / MAYBE_TAG. */
type TagMatch = string | typeof NO_TAG | typeof MAYBE_TAG;

/** The tags of one tool, compiled once from the grammar. */
export interface ToolTags {
  readonly name: string;
  /** "<write_to_file>" */
  readonly open: string;
  /** "</write_to_file>" */
  readonly close: string;
  /** "<path>" → "path", for this tool's declared parameters. */
  readonly paramByTag: ReadonlyMap<string, string>;
  /** The tags that mean something between parameters: the tool's end, then each parameter's start. */
  readonly nextTags: readonly string[];
  /** The tool's end, then the start of each parameter that is not raw: what may follow a raw value. */
  readonly afterRawTags: readonly string[];
}

/** Which of `tags` starts at `at`; MAYBE_TAG when the input ends inside one of them. */
export function matchTag(work: string, at: number, tags: readonly string[]): TagMatch {
  const available = work.length - at;
  let maybe = false;
  for (const tag of tags) {
    if (available >= tag.length) {
      if (work.startsWith(tag, at)) return tag;
    } else if (!maybe && tag.startsWith(work.slice(at))) {
      maybe = true;
    }
  }
  return maybe ? MAYBE_TAG : NO_TAG;
}

/** True for a whitespace character. */
export function isWhitespace(ch: string): boolean {
  return ch.trim().length === 0;
}
