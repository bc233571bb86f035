import { type FileListing, listWorkspaceFiles } from './file-listing.js';
import type { IgnorePolicy } from './ignore-policy.js';
import type { WorkspaceRoot, WorkspaceRoots } from './workspace-roots.js';

/**
 * Lists a folder inside the workspace with its entries as they are shown: the primary root of a
 * multi-root workspace stands for the whole workspace (every folder is listed), and the entries of
 * another folder carry its prefix.
 */
export async function listWorkspaceFolder(workspace: WorkspaceRoots, root: WorkspaceRoot, dir: string, options: RootListingOptions): Promise<FileListing> {
  if (workspace.isMultiRoot && root === workspace.primary && dir === root.path) return listAllRoots(workspace, options);
  const listed = await listWorkspaceFiles({ root: root.path, dir, ...options });
  if (root === workspace.primary) return listed;
  const prefix = workspace.prefixOf(root);
  return { ...listed, entries: listed.entries.map((entry) => `${prefix}/${entry}`) };
}

/** What to list across all folders of a workspace. */
interface RootListingOptions {
  readonly recursive: boolean;
  readonly limit: number;
  readonly ignore: IgnorePolicy;
}

/**
 * Lists every folder of a workspace as one listing: the primary root's entries as they are, then
 * each other folder as `<prefix>/` followed (when recursive) by its entries under that prefix.
 * The limit is shared fairly: a small folder is listed whole and leaves the rest to the others,
 * and a folder that is cut keeps its top levels (it is listed again with its share as the limit).
 */
export async function listAllRoots(roots: WorkspaceRoots, options: RootListingOptions): Promise<FileListing> {
  const { recursive, limit, ignore } = options;
  const list = (root: WorkspaceRoot, max: number) => listWorkspaceFiles({ root: root.path, dir: root.path, recursive, limit: max, ignore });
  const all = roots.all;
  const full = await Promise.all(
    all.map((root, i) => (i === 0 || recursive ? list(root, limit) : Promise.resolve<FileListing>({ entries: [], truncated: false }))),
  );
  // Another folder's own line counts towards the limit like any entry.
  const shares = fairShares(
    full.map((listing, i) => listing.entries.length + (i === 0 ? 0 : 1)),
    limit,
  );
  const entries: string[] = [];
  let truncated = false;
  for (const [i, root] of all.entries()) {
    const share = shares[i]!;
    const own = i === 0 ? share : share - 1;
    if (own < 0) {
      truncated = true;
      continue;
    }
    let listing = full[i]!;
    if (own < listing.entries.length) listing = own === 0 ? { entries: [], truncated: true } : await list(root, own);
    truncated ||= listing.truncated;
    if (i === 0) {
      entries.push(...listing.entries);
      continue;
    }
    const prefix = roots.prefixOf(root);
    entries.push(`${prefix}/`, ...listing.entries.map((entry) => `${prefix}/${entry}`));
  }
  return { entries, truncated };
}

/**
 * Splits `limit` over wanted sizes: each gets what it wants or an equal part of what is left,
 * smallest first (so what a small folder leaves goes to the others); ties favour the earlier folder.
 */
export function fairShares(sizes: readonly number[], limit: number): number[] {
  const shares = sizes.map(() => 0);
  let remaining = limit;
  // A stable sort keeps workspace order among equal sizes, and rounding up gives the earlier one the odd entry.
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[a]! - sizes[b]!);
  for (const [k, i] of order.entries()) {
    const share = Math.min(sizes[i]!, Math.ceil(remaining / (order.length - k)));
    shares[i] = share;
    remaining -= share;
  }
  return shares;
}
