import { createTwoFilesPatch } from 'diff';

/** Leading bytes searched for a NUL byte, the mark of a binary file. */
const BINARY_PROBE_BYTES = 8192;

/**
 * Decodes UTF-8 chunk by chunk, so a file is judged from its first bytes without being read
 * whole: a NUL byte in the first BINARY_PROBE_BYTES, or bytes that are not UTF-8, make it binary.
 * A BOM is kept in the text.
 */
export class TextChunkDecoder {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private probed = 0;

  /** The text of the next chunk, or undefined when the file is binary. */
  push(bytes: Uint8Array): string | undefined {
    if (this.probed < BINARY_PROBE_BYTES) {
      const probe = bytes.subarray(0, BINARY_PROBE_BYTES - this.probed);
      this.probed += probe.byteLength;
      if (probe.includes(0)) return undefined;
    }
    try {
      return this.decoder.decode(bytes, { stream: true });
    } catch {
      return undefined;
    }
  }

  /** The text held back at the end (an unfinished character), or undefined when it is not UTF-8. */
  end(): string | undefined {
    try {
      return this.decoder.decode();
    } catch {
      return undefined;
    }
  }
}

/** Decodes file bytes as UTF-8 text, or reports the file as binary. */
export function decodeText(bytes: Uint8Array): { readonly text: string } | { readonly binary: true } {
  const decoder = new TextChunkDecoder();
  const text = decoder.push(bytes);
  const rest = text === undefined ? undefined : decoder.end();
  return text === undefined || rest === undefined ? { binary: true } : { text: text + rest };
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
