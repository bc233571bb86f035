/** Most decimals a dollar amount is shown with: a millionth of a dollar is below any request's price. */
const MAX_DECIMALS = 6;

/**
 * A US-dollar amount as `$0.0025`: at least `minDecimals` decimals, and as many more (up to six) as
 * the amount needs to be shown exactly, so a small limit never reads as `$0.00`. The one place
 * money is formatted for messages (limits, totals, summaries).
 */
export function formatUsd(amount: number, minDecimals = 2): string {
  if (!Number.isFinite(amount)) return `$${amount}`;
  for (let decimals = minDecimals; decimals < MAX_DECIMALS; decimals++) {
    const text = amount.toFixed(decimals);
    if (Math.abs(Number(text) - amount) < 1e-12) return `$${text}`;
  }
  return `$${amount.toFixed(MAX_DECIMALS)}`;
}
