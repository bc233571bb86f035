import { EARLY_HOST_MESSAGES } from '../../../src/shared/early-host-messages.js';
import { FIRST_SNAPSHOT_ELEMENT_ID, readFirstSnapshot, type SnapshotMessage } from '../../../src/shared/first-snapshot.js';
import { parseHostMessage } from '../../../src/shared/protocol.js';
import { readUiState, writeUiState } from '../vscode-api.js';

/**
 * The snapshot the host gave this page before its script ran, so the chat draws before `ready` is
 * answered: the one in the page's HTML, only on the first load of that HTML (VS Code loads the same
 * HTML again when a hidden view is shown, and by then its snapshot is old: the page then waits for
 * the host's, as it always did); or, for a page loaded before Smith's core, the snapshot the core
 * posted once connected, which the page kept (early-host-messages.ts). Nothing else is kept: the
 * host sends a fresh snapshot on `ready` anyway.
 */
export function takeFirstSnapshot(): SnapshotMessage | undefined {
  const found = readFirstSnapshot(document.getElementById(FIRST_SNAPSHOT_ELEMENT_ID)?.textContent);
  if (found) {
    if (readUiState().firstSnapshotPage === found.page) return undefined;
    writeUiState({ firstSnapshotPage: found.page });
    return found.message;
  }
  const early = (globalThis as { [EARLY_HOST_MESSAGES]?: () => unknown[] })[EARLY_HOST_MESSAGES]?.() ?? [];
  for (const message of early) {
    const parsed = parseHostMessage(message);
    if (parsed.ok && parsed.message.type === 'snapshot') return parsed.message;
  }
  return undefined;
}
