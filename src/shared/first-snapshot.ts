// The first snapshot travels inside the chat page's HTML, so the webview draws the chat as soon as
// its script runs instead of after a round trip (`ready`, then the host's `snapshot`) through an
// extension host that may be busy starting other extensions.
import { parseHostMessage, type HostMessage } from './protocol.js';

/** A `snapshot` host message. */
export type SnapshotMessage = Extract<HostMessage, { type: 'snapshot' }>;

/** The id of the element that carries it. */
export const FIRST_SNAPSHOT_ELEMENT_ID = 'smith-first-snapshot';

/**
 * A data block holding `message` (a block of type application/json is never run, so the page's CSP
 * allows it); `page` names this HTML, so a reload of the same HTML can tell the snapshot is old.
 */
export function firstSnapshotElement(message: SnapshotMessage, page: string): string {
  // Every `<` escaped: no `</script>` or `<!--` in a task's text can end the block or the page early.
  const json = JSON.stringify({ page, message }).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${FIRST_SNAPSHOT_ELEMENT_ID}">${json}</script>`;
}

/** The page name and the validated snapshot of such a block's text; undefined when missing or not a valid snapshot. */
export function readFirstSnapshot(text: string | null | undefined): { readonly page: string; readonly message: SnapshotMessage } | undefined {
  if (!text) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const { page, message } = (typeof raw === 'object' && raw !== null ? raw : {}) as { page?: unknown; message?: unknown };
  if (typeof page !== 'string' || page === '') return undefined;
  const parsed = parseHostMessage(message);
  return parsed.ok && parsed.message.type === 'snapshot' ? { page, message: parsed.message } : undefined;
}
