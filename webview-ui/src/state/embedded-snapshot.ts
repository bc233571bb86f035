import { FIRST_SNAPSHOT_ELEMENT_ID, readFirstSnapshot, type SnapshotMessage } from '../../../src/shared/first-snapshot.js';
import { readUiState, writeUiState } from '../vscode-api.js';

/**
 * The snapshot the host put in this page's HTML, so the chat draws before `ready` is answered; only
 * on the first load of that HTML: VS Code loads the same HTML again when a hidden view is shown,
 * and by then its snapshot is old (the page then waits for the host's, as it always did).
 */
export function takeFirstSnapshot(): SnapshotMessage | undefined {
  const found = readFirstSnapshot(document.getElementById(FIRST_SNAPSHOT_ELEMENT_ID)?.textContent);
  if (!found || readUiState().firstSnapshotPage === found.page) return undefined;
  writeUiState({ firstSnapshotPage: found.page });
  return found.message;
}
