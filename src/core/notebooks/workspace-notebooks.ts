// Whether a workspace holds Jupyter notebooks, so edit_notebook's spec is in the prompt only where
// it can be of use. The walk is list_files's (ignore files, .smithignore, skipped folders), bounded:
// a notebook deeper than the first NOTEBOOK_SCAN_ENTRIES entries of a folder is not seen, and a
// task that reads or writes one is offered the tool from then on (turn-setup.ts).
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import { listWorkspaceFiles } from '../workspace/file-listing.js';
import type { WorkspaceRoots } from '../workspace/workspace-roots.js';
import { isNotebookPath } from './notebook-document.js';

/** Entries of each workspace folder looked at, breadth-first. */
export const NOTEBOOK_SCAN_ENTRIES = 10_000;

/** One look for notebooks, started at once; `found` is false until it has finished. */
export class WorkspaceNotebooks {
  private seen = false;
  /** Settles when the look is over (never rejects: an unreadable folder holds no notebook found). */
  readonly scanned: Promise<void>;

  constructor(workspace: WorkspaceRoots, ignore: IgnorePolicy) {
    this.scanned = Promise.all(
      workspace.all.map(async (root) => {
        const listing = await listWorkspaceFiles({ root: root.path, dir: root.path, recursive: true, limit: NOTEBOOK_SCAN_ENTRIES, ignore }).catch(
          () => undefined,
        );
        if (listing?.entries.some((entry) => isNotebookPath(entry))) this.seen = true;
      }),
    ).then(() => undefined);
  }

  get found(): boolean {
    return this.seen;
  }
}
