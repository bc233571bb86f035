// The pieces of a SEARCH text that the closest-region look-ups search a large file for.
//
// A String.prototype.indexOf that finds nothing is the yardstick. Looking for one character is a
// memchr pass, a small fraction of that indexOf over code, plus about 15 ns per occurrence to
// resume from each one found. So the look-ups walk the occurrences of the few characters of the
// SEARCH that the file contains least (a capital letter, a digit, a rare sign), and at each one
// check every key, a piece of a SEARCH line that starts with that character: one walk serves every
// place the character has in the SEARCH, and the places a key is found are few, which is what
// locates a region. Longer patterns given to indexOf would cost more: V8 turns to
// Boyer-Moore-Horspool for them, which on code costs two to five times that indexOf each.

/** A piece of a SEARCH line that starts with one of the walked characters. */
export interface LookupKey {
  readonly text: string;
  /** Position of the line among the compared SEARCH lines. */
  readonly line: number;
  /** Where the key starts in that (normalised) line. */
  readonly column: number;
}

// A key starts as a rare character and the three after it, and grows while the sample shows it is
// common (`Item` is, `Item = {` may not be), up to a length a mistake would rarely fall inside.
// Keys shorter than the start length are allowed only at the end of a line (`27;`).
const KEY_CHARS = 4;
const MAX_KEY_CHARS = 12;
const MIN_KEY_CHARS = 3;
// Each walked character costs at least one memchr pass over the file.
const MAX_WALKED_CHARS = 12;
// A key the sample holds this often is found about once per thousand characters of file: so common
// that measuring each place would cost more than the rare keys tell.
const COMMON_IN_SAMPLE = 4;

// Counts come from a sample spread over the file: counting the whole file would cost more than
// all the look-ups together.
const SAMPLE_CHUNKS = 16;
const SAMPLE_CHUNK_CHARS = 256;

/**
 * The walks' budget, in occurrences of walked characters: one per 96 characters of file, about two
 * indexOf passes over code at 15 ns an occurrence, and never less than about a tenth of a
 * millisecond's worth, below which too few characters fit to be reliable and the time saved is
 * nothing. A memchr pass over the whole file costs about one occurrence per 1,024 characters, and
 * measuring a line a key is found on about four.
 */
const BUDGET_CHARS_PER_OCCURRENCE = 96;
const MIN_BUDGET = 8192;
const PASS_CHARS_PER_OCCURRENCE = 1024;
const OCCURRENCES_PER_FOUND_KEY = 4;
// Characters are chosen until each SEARCH line has this many keys, or the budget is spent: one key
// of a line may fall on the very word the model got wrong.
const KEYS_WANTED_PER_LINE = 2;

/** Chunks of the file spread from its start to its end, to estimate how often a character or key occurs. */
export class FileSample {
  private readonly sample: string;
  private readonly ascii = new Int32Array(128);
  private readonly other = new Map<number, number>();
  /** File characters per sampled character. */
  private readonly scale: number;

  constructor(text: string) {
    const chunks = text.length <= SAMPLE_CHUNKS * SAMPLE_CHUNK_CHARS ? 1 : SAMPLE_CHUNKS;
    const chunkChars = chunks === 1 ? text.length : SAMPLE_CHUNK_CHARS;
    const stride = chunks === 1 ? 0 : Math.floor((text.length - chunkChars) / (chunks - 1));
    const parts: string[] = [];
    for (let chunk = 0; chunk < chunks; chunk++) parts.push(text.slice(chunk * stride, chunk * stride + chunkChars));
    // Joined by newlines, which no key contains, so that no key is found across two chunks.
    this.sample = parts.join('\n');
    for (let at = 0; at < this.sample.length; at++) {
      const code = this.sample.charCodeAt(at);
      if (code < 128) this.ascii[code]!++;
      else this.other.set(code, (this.other.get(code) ?? 0) + 1);
    }
    this.scale = text.length / Math.max(1, chunks * chunkChars);
  }

  /** Estimated occurrences of a character in the file; one the sample lacks still counts half. */
  occurrences(code: number): number {
    const seen = code < 128 ? this.ascii[code]! : (this.other.get(code) ?? 0);
    return (seen + 0.5) * this.scale;
  }

  /** How many times the sample holds `key`, counted up to `limit`; indexOf skips the places that differ natively. */
  count(key: string, limit: number): number {
    let count = 0;
    for (let at = this.sample.indexOf(key); at !== -1 && count < limit; at = this.sample.indexOf(key, at + 1)) count++;
    return count;
  }

  /** Estimated occurrences of a text of `count` sampled occurrences in the file. */
  estimate(count: number): number {
    return (count + 0.5) * this.scale;
  }
}

/** A character that may be walked, with its keys and what walking it costs. */
interface Candidate {
  readonly char: string;
  readonly keys: readonly LookupKey[];
  readonly occurrences: number;
  /** Filled in when first needed: the keys rare enough to tell, and the walk's cost. */
  telling?: readonly LookupKey[];
  cost?: number;
}

/**
 * The characters to walk, each with the keys that start with it, within the budget: at each step
 * the character that gives the SEARCH lines still short of keys the most keys for its cost.
 * `wanted` are the SEARCH's normalised non-blank lines.
 */
export function planLookups(text: string, wanted: readonly string[], sample: FileSample): Map<string, LookupKey[]> {
  const candidates = [...keysByFirstChar(wanted)].map(([char, keys]): Candidate => ({ char, keys, occurrences: sample.occurrences(char.charCodeAt(0)) }));
  // Cheapest first, so that a good value is found early and dearer characters need not be counted.
  candidates.sort((a, b) => a.occurrences - b.occurrences);
  const budget = Math.max(MIN_BUDGET, text.length / BUDGET_CHARS_PER_OCCURRENCE);
  const passCost = text.length / PASS_CHARS_PER_OCCURRENCE;
  const keysOnLine = new Int32Array(wanted.length);
  const added = new Int32Array(wanted.length);
  const plan = new Map<string, LookupKey[]>();
  let spent = 0;
  while (plan.size < MAX_WALKED_CHARS) {
    let best: { readonly candidate: Candidate; readonly value: number } | undefined;
    for (const candidate of candidates) {
      if (plan.has(candidate.char)) continue;
      // Counting keys in the sample costs more than the rest of the choice, so a character is
      // counted only if it may fit and may be worth more than the best so far, were all its keys rare.
      const leastCost = passCost + candidate.occurrences;
      if (spent + leastCost > budget) break;
      if (best && gain(candidate.keys, keysOnLine, added) / leastCost <= best.value) continue;
      const { telling, cost } = tellingKeys(candidate, wanted, sample, passCost);
      if (spent + cost > budget) continue;
      const value = gain(telling, keysOnLine, added) / cost;
      if (value > 0 && (!best || value > best.value)) best = { candidate, value };
    }
    if (!best) break;
    const telling = best.candidate.telling!;
    spent += best.candidate.cost!;
    plan.set(best.candidate.char, [...telling]);
    for (const key of telling) keysOnLine[key.line]!++;
  }
  return plan;
}

/**
 * The start of each SEARCH line where the sample shows it is common in the file, so that looking
 * for a few of its places costs little. For a SEARCH with no rare piece in the file: its lines
 * may still be plain code (`return result;`) that the file has, and any such place is a fair answer.
 */
export function commonLineStarts(wanted: readonly string[], sample: FileSample): LookupKey[] {
  return wanted.flatMap((line, index) => {
    const key = line.slice(0, KEY_CHARS);
    return key.length === KEY_CHARS && sample.count(key, COMMON_IN_SAMPLE) === COMMON_IN_SAMPLE ? [{ text: key, line: index, column: 0 }] : [];
  });
}

/** Every key of the SEARCH lines, at its start length, grouped by its first character. */
function keysByFirstChar(wanted: readonly string[]): Map<string, LookupKey[]> {
  const keysByChar = new Map<string, LookupKey[]>();
  wanted.forEach((line, index) => {
    for (let column = 0; column + MIN_KEY_CHARS <= line.length; column++) {
      const char = line[column]!;
      // Whitespace is the commonest character of all, and indentation differs anyway.
      if (char === ' ' || char === '\t') continue;
      const keys = keysByChar.get(char) ?? [];
      keys.push({ text: line.slice(column, column + KEY_CHARS), line: index, column });
      keysByChar.set(char, keys);
    }
  });
  return keysByChar;
}

/** The candidate's keys grown until the sample shows they are rare (the others dropped), and the cost of walking it. */
function tellingKeys(candidate: Candidate, wanted: readonly string[], sample: FileSample, passCost: number): { telling: readonly LookupKey[]; cost: number } {
  if (candidate.telling === undefined || candidate.cost === undefined) {
    const telling: LookupKey[] = [];
    let found = 0;
    for (const key of candidate.keys) {
      const line = wanted[key.line]!;
      let text = key.text;
      let count = sample.count(text, COMMON_IN_SAMPLE);
      while (count === COMMON_IN_SAMPLE && text.length < MAX_KEY_CHARS && key.column + text.length < line.length) {
        text = line.slice(key.column, key.column + text.length + 2);
        count = sample.count(text, COMMON_IN_SAMPLE);
      }
      if (count === COMMON_IN_SAMPLE) continue;
      telling.push(text === key.text ? key : { ...key, text });
      found += sample.estimate(count);
    }
    candidate.telling = telling;
    candidate.cost = passCost + candidate.occurrences + OCCURRENCES_PER_FOUND_KEY * found;
  }
  return { telling: candidate.telling, cost: candidate.cost };
}

/**
 * What the keys add to lines still short of keys: a line's first key counts more than its second,
 * so that more lines are looked for. `added` is scratch space, one slot per line.
 */
function gain(keys: readonly LookupKey[], keysOnLine: Int32Array, added: Int32Array): number {
  added.fill(0);
  let gained = 0;
  for (const key of keys) {
    const before = keysOnLine[key.line]! + added[key.line]!;
    if (before < KEYS_WANTED_PER_LINE) gained += 1 / (before + 1);
    added[key.line]!++;
  }
  return gained;
}
