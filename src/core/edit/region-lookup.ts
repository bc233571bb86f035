import { isBlank, punctuationNormaliser } from './line-normalisers.js';
import { commonLineStarts, FileSample, type LookupKey, planLookups } from './lookup-keys.js';
import { linesSimilarity } from './similarity.js';

// Finds the region of a large file most like a SEARCH text without reading every line: the
// occurrences of a few characters the file rarely has are walked with indexOf (lookup-keys.ts),
// and where one starts a piece of a SEARCH line, the file line there is measured by how much of
// the SEARCH line it starts and ends with. Stretches where several SEARCH lines agree at length
// are the candidates, and only windows around those are compared in full. A SEARCH copied from a
// region keeps most of that region's text, so its lines agree there, but for the mistakes.

/** A window of the file, as offsets: the start of its first line and the end of its last non-blank line. */
interface LookedUpRegion {
  readonly start: number;
  readonly end: number;
  readonly similarity: number;
}

// A hit counts only if the file line agrees with the key's line beyond the key itself: a key
// found inside an unrelated line is noise, and keeping every such hit would cost more than it tells.
const MIN_AGREEMENT = 8;
// Agreement is measured on this much of each end of a line at most, which bounds the work on minified lines.
const MAX_AGREEMENT = 256;
// Places looked at per common key: enough to find a place that agrees, few enough to cost nothing.
const COMMON_KEY_PLACES = 8;
// Several candidate places are compared, as the best agreement may also be in a similar function.
const MAX_CLUSTERS = 4;
// Places that agree less than this share of the best place are not worth comparing.
const MIN_CLUSTER_SHARE = 0.25;
// Windows that one place suggests (one per SEARCH line its hits are for), tried longest agreement first.
const STARTS_PER_CLUSTER = 3;

interface Hit {
  /** Where the file line starts. */
  readonly lineStart: number;
  /** The SEARCH line the key came from. */
  readonly line: number;
  /** How many characters of that SEARCH line the file line starts and ends with. */
  readonly agreement: number;
}

/** A run of hits within one SEARCH-sized stretch of the file, scored by its lines' longest agreements. */
interface Cluster {
  readonly first: number;
  readonly last: number;
  readonly score: number;
}

/**
 * The window of `wanted.length` non-blank lines most similar to `wanted` (the SEARCH's normalised
 * non-blank lines) among those the look-ups point at; undefined when no key is in the file.
 * `searchChars` is the length of the SEARCH lines compared, which bounds how far apart the hits
 * of one region can be.
 */
export function findRegionByLookups(text: string, wanted: readonly string[], searchChars: number): LookedUpRegion | undefined {
  const sample = new FileSample(text);
  let hits = lookUp(text, wanted, planLookups(text, wanted, sample));
  if (hits.length === 0) hits = lookUpCommon(text, wanted, commonLineStarts(wanted, sample));
  if (hits.length === 0) return undefined;
  // Indentation and blank lines the SEARCH lacks make the file's region longer than the SEARCH.
  const span = 2 * searchChars + 64;
  let best: LookedUpRegion | undefined;
  const compared = new Set<number>();
  for (const cluster of bestClusters(hits, wanted.length, span)) {
    for (const from of windowStarts(text, hits.slice(cluster.first, cluster.last + 1))) {
      const window = readWindow(text, from, wanted.length);
      if (window === undefined || compared.has(window.start)) continue;
      compared.add(window.start);
      const similarity = linesSimilarity(wanted, window.lines);
      if (!best || similarity > best.similarity || (similarity === best.similarity && window.start < best.start)) {
        best = { start: window.start, end: window.end, similarity };
      }
    }
  }
  return best;
}

/** Every file line where a key occurs and that agrees with the key's line at some length, in file order. */
function lookUp(text: string, wanted: readonly string[], plan: ReadonlyMap<string, readonly LookupKey[]>): Hit[] {
  const hits = new HitList(text, wanted);
  for (const [char, keys] of plan) {
    // Keys are compared a character at a time: most occurrences differ at the next character, and
    // a call to startsWith for each would cost more than the walk itself.
    const codes = keys.map((key) => Array.from(key.text, (_, i) => key.text.charCodeAt(i)));
    for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) {
      for (let k = 0; k < keys.length; k++) {
        const code = codes[k]!;
        let same = 1;
        while (same < code.length && text.charCodeAt(at + same) === code[same]) same++;
        if (same === code.length) hits.measure(at, keys[k]!.line);
      }
    }
  }
  return hits.inFileOrder();
}

/** The first few places of each common key, measured like the others. */
function lookUpCommon(text: string, wanted: readonly string[], keys: readonly LookupKey[]): Hit[] {
  const hits = new HitList(text, wanted);
  for (const key of keys) {
    let places = 0;
    for (let at = text.indexOf(key.text); at !== -1 && places < COMMON_KEY_PLACES; at = text.indexOf(key.text, at + 1), places++) hits.measure(at, key.line);
  }
  return hits.inFileOrder();
}

/** Hits as they are found: each file line measured once per SEARCH line, however many keys it holds. */
class HitList {
  private readonly hits: Hit[] = [];
  /** Per file line start, a bit per SEARCH line (at most 20) it was measured against. */
  private readonly measured = new Map<number, number>();

  constructor(
    private readonly text: string,
    private readonly wanted: readonly string[],
  ) {}

  /** Measures the file line around `at` against SEARCH line `line`, and keeps it if it agrees enough. */
  measure(at: number, line: number): void {
    const lineStart = startOfLine(this.text, at);
    const done = this.measured.get(lineStart) ?? 0;
    if (done & (1 << line)) return;
    this.measured.set(lineStart, done | (1 << line));
    const newline = this.text.indexOf('\n', at);
    const wantedLine = this.wanted[line]!;
    const agreement = lineAgreement(this.text, lineStart, newline === -1 ? this.text.length : newline, wantedLine);
    if (agreement >= Math.min(MIN_AGREEMENT, wantedLine.length)) this.hits.push({ lineStart, line, agreement });
  }

  inFileOrder(): Hit[] {
    return this.hits.sort((a, b) => a.lineStart - b.lineStart);
  }
}

/**
 * How many characters of the (trimmed, normalised) SEARCH line the file line, trimmed, starts and
 * ends with: a line with one mistake still agrees on both sides of it.
 */
function lineAgreement(text: string, lineStart: number, lineEnd: number, line: string): number {
  let from = lineStart;
  while (from < lineEnd && isSpace(text.charCodeAt(from))) from++;
  let to = lineEnd;
  while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
  const shorter = Math.min(to - from, line.length);
  const maxPrefix = Math.min(shorter, MAX_AGREEMENT);
  let prefix = 0;
  while (prefix < maxPrefix && text.charCodeAt(from + prefix) === line.charCodeAt(prefix)) prefix++;
  const maxSuffix = Math.min(shorter - prefix, MAX_AGREEMENT);
  let suffix = 0;
  while (suffix < maxSuffix && text.charCodeAt(to - 1 - suffix) === line.charCodeAt(line.length - 1 - suffix)) suffix++;
  return prefix + suffix;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d;
}

/** The best-scored stretches of hits that do not overlap, best first. */
function bestClusters(hits: readonly Hit[], lineCount: number, span: number): Cluster[] {
  // Each SEARCH line counts once per stretch, with its longest agreement there.
  const longest = new Float64Array(lineCount);
  const stamp = new Int32Array(lineCount).fill(-1);
  const candidates: Cluster[] = [];
  for (let first = 0; first < hits.length; first++) {
    let score = 0;
    let last = first;
    for (let at = first; at < hits.length && hits[at]!.lineStart - hits[first]!.lineStart <= span; at++) {
      const { line, agreement } = hits[at]!;
      if (stamp[line] !== first) {
        stamp[line] = first;
        longest[line] = 0;
      }
      if (agreement > longest[line]!) {
        score += agreement - longest[line]!;
        longest[line] = agreement;
      }
      last = at;
    }
    candidates.push({ first, last, score });
  }
  candidates.sort((a, b) => b.score - a.score || a.first - b.first);
  const chosen: Cluster[] = [];
  const overlaps = (a: Cluster, b: Cluster): boolean =>
    hits[a.first]!.lineStart <= hits[b.last]!.lineStart && hits[b.first]!.lineStart <= hits[a.last]!.lineStart;
  for (const candidate of candidates) {
    if (chosen.length === MAX_CLUSTERS || (chosen.length > 0 && candidate.score < MIN_CLUSTER_SHARE * chosen[0]!.score)) break;
    if (!chosen.some((other) => overlaps(candidate, other))) chosen.push(candidate);
  }
  return chosen;
}

/**
 * Where windows start if the hits are where their SEARCH lines are: a hit of SEARCH line i puts the
 * window's start i non-blank lines above it. The longest agreements are asked first.
 */
function windowStarts(text: string, hits: readonly Hit[]): number[] {
  const starts: number[] = [];
  for (const hit of [...hits].sort((a, b) => b.agreement - a.agreement || a.lineStart - b.lineStart)) {
    const start = nonBlankLinesAbove(text, hit.lineStart, hit.line);
    if (!starts.includes(start)) starts.push(start);
    if (starts.length === STARTS_PER_CLUSTER) break;
  }
  return starts;
}

function startOfLine(text: string, offset: number): number {
  return offset === 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
}

/** The start of the line `count` non-blank lines above the line at `lineStart`, or of the first line. */
function nonBlankLinesAbove(text: string, lineStart: number, count: number): number {
  let start = lineStart;
  for (let remaining = count; remaining > 0 && start > 0; ) {
    const previous = startOfLine(text, start - 1);
    if (!isBlank(text.slice(previous, start - 1))) remaining--;
    start = previous;
  }
  return start;
}

/** The first `count` non-blank lines from `from` on, normalised and padded as the full scan compares them. */
function readWindow(text: string, from: number, count: number): { start: number; end: number; lines: string[] } | undefined {
  const lines: string[] = [];
  let start = -1;
  let end = from;
  for (let at = from; lines.length < count && at <= text.length; ) {
    const newline = text.indexOf('\n', at);
    const lineEnd = newline === -1 ? text.length : newline;
    const raw = text.slice(at, lineEnd);
    if (!isBlank(raw)) {
      if (start === -1) start = at;
      lines.push(punctuationNormaliser(raw));
      end = lineEnd;
    }
    if (newline === -1) break;
    at = newline + 1;
  }
  if (start === -1) return undefined;
  while (lines.length < count) lines.push('');
  return { start, end, lines };
}
