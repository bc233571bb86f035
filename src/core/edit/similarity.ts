// Similarity is only ever computed on a few candidate regions, never across a whole file; the
// caps below bound the cost of one comparison whatever the model sends.
const MAX_LINE_CHARS = 160;
const MAX_ALIGN_CELLS = 250_000;

/** Edit distance between two strings (insertions, deletions, substitutions). */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = new Array<number>(b.length + 1);
  let current = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** Similarity of two lines in [0, 1]; long lines are compared on their first characters. */
export function lineSimilarity(a: string, b: string): number {
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
      table[i * width + j] =
        a[i] === b[j]
          ? table[(i + 1) * width + j + 1]! + 1
          : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
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
