/**
 * The index of the last entry of an ascending list that is at most `value` (0 when none is): which
 * line, block or chunk holds an offset, given where each one starts.
 */
export function lastIndexAtOrBefore(ascending: readonly number[], value: number): number {
  let low = 0;
  let high = ascending.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (ascending[mid]! <= value) low = mid;
    else high = mid - 1;
  }
  return low;
}
