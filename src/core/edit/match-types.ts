import type { LineNormaliser } from './line-normalisers.js';
import type { TextLines } from './text-lines.js';

/** One place where a SEARCH text matched, as offsets into the LF text. */
export interface Candidate {
  readonly start: number;
  readonly end: number;
  /** For line-based matches: SEARCH line index → file line index, for the lines that matched. */
  readonly aligned?: ReadonlyMap<number, number>;
}

/** Where to look: the whole text, or only from the end of the previous block on. */
export interface SearchScope {
  readonly lines: TextLines;
  readonly fromOffset: number;
  readonly fromLine: number;
  /** Normalised copies of the text's lines, computed once per normaliser and reused. */
  readonly normalised: (normaliser: LineNormaliser) => readonly string[];
  /** True when a SEARCH line certainly matches no line of the text under any normaliser (see line-presence.ts). */
  readonly lacksLine: (line: string) => boolean;
}

/** The candidates the first successful strategy found, with the SEARCH/REPLACE it used. */
export interface StrategyMatch {
  readonly strategy: string;
  readonly candidates: readonly Candidate[];
  readonly search: readonly string[];
  readonly replace: readonly string[];
  /** True when blank lines at the SEARCH's edges were ignored, so REPLACE's should be too. */
  readonly ignoresEdgeBlankLines: boolean;
}
