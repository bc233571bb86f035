// Similarity is only ever computed on a few candidate regions, never across a whole file; the
// caps below bound the cost of one comparison whatever the model sends.
const MAX_LINE_CHARS = 160;
const MAX_ALIGN_CELLS = 250_000;

// One row pair reused by every call: a window's similarity compares many lines, and allocating
// rows per line pair cost more than filling them.
let previousRow = new Int32Array(MAX_LINE_CHARS + 1);
let currentRow = new Int32Array(MAX_LINE_CHARS + 1);
// What remains of two lines once their common ends are cut is mostly short: up to 32 characters
// it is compared in the bits of one integer. Which positions hold each ASCII character is kept in a
// table that is cleared after each use.
const WORD_BITS = 32;
const asciiPositions = new Int32Array(128);

/** Edit distance between two strings (insertions, deletions, substitutions). */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  // A common prefix or suffix never changes the distance, and similar lines are mostly that.
  let start = 0;
  const shorter = Math.min(a.length, b.length);
  while (start < shorter && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  const lengthA = endA - start;
  const lengthB = endB - start;
  if (lengthA === 0) return lengthB;
  if (lengthB === 0) return lengthA;
  if (lengthA <= WORD_BITS) return bitParallelDistance(a, start, lengthA, b, start, lengthB);
  if (lengthB <= WORD_BITS) return bitParallelDistance(b, start, lengthB, a, start, lengthA);
  if (previousRow.length <= lengthB) {
    previousRow = new Int32Array(lengthB + 1);
    currentRow = new Int32Array(lengthB + 1);
  }
  let previous = previousRow;
  let current = currentRow;
  for (let j = 0; j <= lengthB; j++) previous[j] = j;
  for (let i = 1; i <= lengthA; i++) {
    current[0] = i;
    const ca = a.charCodeAt(start + i - 1);
    for (let j = 1; j <= lengthB; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ca === b.charCodeAt(start + j - 1) ? 0 : 1));
    }
    const swap = previous;
    previous = current;
    current = swap;
  }
  return previous[lengthB]!;
}

/**
 * The same distance for a pattern of at most 32 characters, a column of the table at a time in the
 * bits of one integer (Myers 1999, in Hyyrö's form for whole-string distance): a few operations
 * per character of the text instead of one cell per pair.
 */
function bitParallelDistance(pattern: string, patternStart: number, patternLength: number, text: string, textStart: number, textLength: number): number {
  let other: Map<number, number> | undefined;
  for (let i = 0; i < patternLength; i++) {
    const code = pattern.charCodeAt(patternStart + i);
    if (code < 128) asciiPositions[code]! |= 1 << i;
    else {
      other ??= new Map();
      other.set(code, (other.get(code) ?? 0) | (1 << i));
    }
  }
  const last = 1 << (patternLength - 1);
  let positive = -1;
  let negative = 0;
  let distance = patternLength;
  for (let j = 0; j < textLength; j++) {
    const code = text.charCodeAt(textStart + j);
    const equal = code < 128 ? asciiPositions[code]! : (other?.get(code) ?? 0);
    const vertical = equal | negative;
    const horizontal = (((equal & positive) + positive) ^ positive) | equal;
    let horizontalPositive = negative | ~(horizontal | positive);
    let horizontalNegative = positive & horizontal;
    if (horizontalPositive & last) distance++;
    else if (horizontalNegative & last) distance--;
    horizontalPositive = (horizontalPositive << 1) | 1;
    horizontalNegative <<= 1;
    positive = horizontalNegative | ~(vertical | horizontalPositive);
    negative = horizontalPositive & vertical;
  }
  for (let i = 0; i < patternLength; i++) {
    const code = pattern.charCodeAt(patternStart + i);
    if (code < 128) asciiPositions[code] = 0;
  }
  return distance;
}

/** Similarity of two lines in [0, 1]; long lines are compared on their first characters. */
function lineSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const x = a.slice(0, MAX_LINE_CHARS);
  const y = b.slice(0, MAX_LINE_CHARS);
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 1 : 1 - levenshtein(x, y) / longest;
}

/** Similarity of two line lists in [0, 1]. */
export function linesSimilarity(a: readonly string[], b: readonly string[]): number {
  // Line by line, weighted by length, when both have as many lines; otherwise the share of lines
  // an in-order alignment pairs up.
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length !== b.length) return (2 * alignEqualLines(a, b).length) / (a.length + b.length);
  let weighted = 0;
  let total = 0;
  for (let i = 0; i < a.length; i++) {
    const weight = Math.max(a[i]!.length, b[i]!.length, 1);
    weighted += lineSimilarity(a[i]!, b[i]!) * weight;
    total += weight;
  }
  return weighted / total;
}

/** Pairs equal lines of two lists in order (a longest common subsequence), as [indexInA, indexInB]. */
export function alignEqualLines(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  // Lists too big for the quadratic table get a greedy forward scan instead.
  if (a.length * b.length > MAX_ALIGN_CELLS) return greedyAlign(a, b);
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j] ? table[(i + 1) * width + j + 1]! + 1 : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
    }
  }
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      pairs.push([i++, j++]);
    } else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) {
      i++;
    } else {
      j++;
    }
  }
  return pairs;
}

// Looks only a short way ahead so the fallback stays linear.
const GREEDY_LOOKAHEAD = 64;

function greedyAlign(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  let j = 0;
  for (let i = 0; i < a.length && j < b.length; i++) {
    const limit = Math.min(b.length, j + GREEDY_LOOKAHEAD);
    for (let k = j; k < limit; k++) {
      if (a[i] === b[k]) {
        pairs.push([i, k]);
        j = k + 1;
        break;
      }
    }
  }
  return pairs;
}
