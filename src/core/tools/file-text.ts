import { createTwoFilesPatch } from 'diff';

/** Decodes file bytes as UTF-8 text, or reports the file as binary. */
export function decodeText(bytes: Uint8Array): { readonly text: string } | { readonly binary: true } {
  const probe = bytes.subarray(0, 8192);
  if (probe.includes(0)) return { binary: true };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { binary: true };
  }
}

/** A unified diff of an edit, with workspace-relative names, for approvals and for the model. */
export function unifiedDiff(path: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context: 3 });
}

/** Counts added and removed lines of a unified diff. */
export function diffStats(patch: string): { readonly added: number; readonly removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of patch.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) added++;
    else if (line.startsWith('-') && !line.startsWith('---')) removed++;
  }
  return { added, removed };
}
