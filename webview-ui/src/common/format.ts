/** Token counts as people read them: 950, 12.3k, 4.5M. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${trimZero((count / 1000).toFixed(count < 10_000 ? 1 : 0))}k`;
  return `${trimZero((count / 1_000_000).toFixed(1))}M`;
}

/** Dollars with four decimals, since a single request often costs a fraction of a cent. */
export function formatCost(dollars: number): string {
  return `$${dollars.toFixed(4)}`;
}

/** A local date and time for the history list. */
export function formatDate(epochMs: number): string {
  return new Date(epochMs).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function trimZero(text: string): string {
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}

/** Bytes as people read them: 950 B, 12.3 KB, 4.5 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${trimZero((bytes / 1024).toFixed(1))} KB`;
  return `${trimZero((bytes / (1024 * 1024)).toFixed(1))} MB`;
}
