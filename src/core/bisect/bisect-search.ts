// The search itself, apart from checkpoints and processes: which state to test next, and what
// the answers so far prove.

/** What one test run said of a state: passed, failed (a timeout counts), or could not be tested. */
export type StateVerdict = 'pass' | 'fail' | 'skip';

/** Where the search ended: the last state known to pass and the first known to fail after it. */
export interface SearchBounds {
  /** The index of the last passing state. */
  readonly good: number;
  /** The index of the first failing state after `good`; every state between them was skipped. */
  readonly bad: number;
}

/** How to walk the states between a passing first one and a failing last one. */
export type SearchMode = 'binary' | 'linear';

/**
 * Finds the first failing state after a passing one, given states 0..count-1 where 0 is known
 * to pass and count-1 to fail. `test(index)` runs the test on a state. Binary: the state in the
 * middle of the unknown range each time (about log2(count) runs); a skipped state is left out and
 * its nearest untested neighbour is tried instead. Linear: every state in order until one fails.
 * Resolves with the bounds: when states between them were skipped, one of the steps from `good`
 * to `bad` is the cause and no run can tell which.
 */
export async function searchFirstFailure(
  count: number,
  mode: SearchMode,
  test: (index: number) => Promise<StateVerdict>,
  signal?: AbortSignal,
): Promise<SearchBounds> {
  if (count < 2) throw new Error('a search needs a passing first state and a failing last one');
  let good = 0;
  let bad = count - 1;
  const skipped = new Set<number>();
  for (;;) {
    signal?.throwIfAborted();
    const next = mode === 'linear' ? firstUntested(good, bad, skipped) : middleUntested(good, bad, skipped);
    if (next === undefined) return { good, bad };
    const verdict = await test(next);
    if (verdict === 'pass') good = next;
    else if (verdict === 'fail') bad = next;
    else skipped.add(next);
  }
}

/** The untested state nearest the middle of (good, bad), the lower one on a tie. */
function middleUntested(good: number, bad: number, skipped: ReadonlySet<number>): number | undefined {
  const middle = Math.floor((good + bad) / 2);
  for (let offset = 0; offset < bad - good; offset++) {
    for (const candidate of [middle - offset, middle + offset + 1]) {
      if (candidate > good && candidate < bad && !skipped.has(candidate)) return candidate;
    }
  }
  return undefined;
}

function firstUntested(good: number, bad: number, skipped: ReadonlySet<number>): number | undefined {
  for (let index = good + 1; index < bad; index++) if (!skipped.has(index)) return index;
  return undefined;
}
