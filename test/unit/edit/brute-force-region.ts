// The reference the closest-region look-ups are judged against: the similarity of EVERY window of
// a file, as findClosestRegion defines windows (the SEARCH's count of non-blank lines, compared
// normalised). Comparing every window exactly would take seconds per file, so a window is compared
// only when an upper bound on its similarity beats the best similarity found so far; the bound
// never undercuts the true similarity, so the answer is the exact maximum (the test checks this
// against the plain loop).
import { isBlank, punctuationNormaliser } from '../../../src/core/edit/line-normalisers.js';
import { linesSimilarity } from '../../../src/core/edit/similarity.js';

// As in similarity.ts: lines are compared on their first characters.
const MAX_LINE_CHARS = 160;
// Characters beyond ASCII share the last bucket, which can only raise the bound.
const BUCKETS = 128;
// The bound is a float sum in another order than linesSimilarity's: allow for rounding.
const ROUNDING = 1e-9;

function bucket(code: number): number {
  return code < BUCKETS ? code : BUCKETS - 1;
}

/** One SEARCH line's characters, counted, for the bag bound. */
interface CountedLine {
  readonly text: string;
  readonly compared: number;
  readonly codes: Int32Array;
  readonly times: Int32Array;
}

/** A file's non-blank lines, ready to be compared with any SEARCH. */
export class WindowBruteForce {
  /** The 0-based file line of each non-blank line. */
  readonly lineIndex: number[] = [];
  private readonly normalised: string[] = [];
  /** Per non-blank line, how often each character occurs in its compared part. */
  private readonly histograms: Uint8Array;

  constructor(fileLines: readonly string[]) {
    fileLines.forEach((line, index) => {
      if (isBlank(line)) return;
      this.lineIndex.push(index);
      this.normalised.push(punctuationNormaliser(line));
    });
    this.histograms = new Uint8Array(this.normalised.length * BUCKETS);
    this.normalised.forEach((line, position) => {
      const compared = line.slice(0, MAX_LINE_CHARS);
      for (let i = 0; i < compared.length; i++) this.histograms[position * BUCKETS + bucket(compared.charCodeAt(i))]!++;
    });
  }

  /** The similarity of the window that starts at non-blank line `position`, exactly as findClosestRegion computes it. */
  similarityAt(wanted: readonly string[], position: number): number {
    const region = this.normalised.slice(position, position + wanted.length);
    while (region.length < wanted.length) region.push('');
    return linesSimilarity(wanted, region);
  }

  /**
   * The best similarity over every window, and where the first window with it starts. Starting
   * from the best of a few good windows (`hints`, e.g. around where the SEARCH was copied from)
   * lets most windows be ruled out after the bound of a line or two.
   */
  best(wanted: readonly string[], hints: readonly number[] = [0]): { similarity: number; position: number } {
    const count = this.normalised.length;
    const lines = wanted.map((text) => countLine(text));
    // Line bounds are computed when first needed: most windows are ruled out before their last line.
    const lineBounds = lines.map(() => new Float64Array(count).fill(Number.NaN));
    let best = { similarity: -1, position: -1 };
    for (const hint of hints) {
      if (hint < 0 || hint >= count) continue;
      const similarity = this.similarityAt(wanted, hint);
      if (similarity > best.similarity || (similarity === best.similarity && hint < best.position)) best = { similarity, position: hint };
    }
    const weights = new Float64Array(lines.length);
    for (let position = 0; position < count; position++) {
      let total = 0;
      for (let k = 0; k < lines.length; k++) {
        weights[k] = Math.max(lines[k]!.text.length, position + k < count ? this.normalised[position + k]!.length : 0, 1);
        total += weights[k]!;
      }
      // The weighted sum if every line not yet bounded were equal; lowered as lines are bounded.
      let optimistic = total;
      for (let k = 0; k < lines.length && optimistic + ROUNDING * total >= best.similarity * total; k++) {
        const at = position + k;
        let bound = 0;
        if (at < count) {
          if (Number.isNaN(lineBounds[k]![at]!)) lineBounds[k]![at] = this.lineBound(lines[k]!, at);
          bound = lineBounds[k]![at]!;
        }
        optimistic -= (1 - bound) * weights[k]!;
      }
      if (optimistic + ROUNDING * total < best.similarity * total) continue;
      const similarity = this.similarityAt(wanted, position);
      if (similarity > best.similarity || (similarity === best.similarity && position < best.position)) best = { similarity, position };
    }
    return best;
  }

  /** The plain loop over every window, to check `best` on small files. */
  bestByPlainLoop(wanted: readonly string[]): { similarity: number; position: number } {
    let best = { similarity: -1, position: -1 };
    for (let position = 0; position < this.normalised.length; position++) {
      const similarity = this.similarityAt(wanted, position);
      if (similarity > best.similarity) best = { similarity, position };
    }
    return best;
  }

  /**
   * A bound on one line's similarity: an edit turns at most one character into another, so two
   * lines are at least as far apart as their character counts differ (the bag distance), and the
   * similarity is at most the characters they share over the longer one's length. A padding line
   * past the end shares nothing.
   */
  private lineBound(line: CountedLine, position: number): number {
    const other = this.normalised[position]!;
    if (other === line.text) return 1;
    const longest = Math.max(line.compared, Math.min(other.length, MAX_LINE_CHARS));
    if (longest === 0) return 1;
    const base = position * BUCKETS;
    let shared = 0;
    for (let c = 0; c < line.codes.length; c++) {
      const held = this.histograms[base + line.codes[c]!]!;
      shared += Math.min(held, line.times[c]!);
    }
    return shared / longest;
  }
}

function countLine(text: string): CountedLine {
  const compared = text.slice(0, MAX_LINE_CHARS);
  const counts = new Map<number, number>();
  for (let i = 0; i < compared.length; i++) counts.set(bucket(compared.charCodeAt(i)), (counts.get(bucket(compared.charCodeAt(i))) ?? 0) + 1);
  return { text, compared: compared.length, codes: Int32Array.from(counts.keys()), times: Int32Array.from(counts.values()) };
}
