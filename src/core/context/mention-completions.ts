import { listWorkspaceFolder } from '../workspace/root-listing.js';
import { loadWorkspaceIgnore } from '../workspace/smith-ignore.js';
import { WorkspaceRoots } from '../workspace/workspace-roots.js';
import type { MentionSuggestion } from '../../shared/protocol.js';

/** The mentions that name no file, for the composer's completion. */
const SPECIAL: readonly MentionSuggestion[] = [
  { value: 'problems', label: 'problems', detail: "The workspace's errors and warnings" },
  { value: 'terminal', label: 'terminal', detail: "The latest command's output in the active terminal" },
  { value: 'git-changes', label: 'git-changes', detail: 'The working tree diff' },
];
/** Files and folders offered at most. */
const SHOWN = 20;
/** Paths listed for completion (the listing respects .gitignore and .smithignore). */
const LISTED = 20_000;
/** How long a listing is reused before the workspace is listed again. */
const FRESH_MS = 10_000;

/**
 * Completions for an @-mention as the user types it: the special mentions and the workspace's
 * files and folders (ignored ones left out; in a multi-root workspace every folder's, shown as
 * paths are), matched fuzzily (the query's characters in order, a match in the file name and at
 * word starts ranking first).
 */
export class MentionSuggestions {
  private listing: { readonly key: string; readonly at: number; readonly paths: Promise<readonly string[]> } | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** `workspace`: the workspace's folder, or all its folders; undefined when none is open. */
  async suggest(workspace: string | WorkspaceRoots | undefined, query: string): Promise<MentionSuggestion[]> {
    const needle = query.toLowerCase();
    const special = SPECIAL.filter((s) => s.value.startsWith(needle));
    if (!workspace) return special;
    const files = rankPaths(await this.paths(typeof workspace === 'string' ? WorkspaceRoots.single(workspace) : workspace), needle)
      .slice(0, SHOWN)
      .map((path) => ({ value: path, label: path, detail: path.endsWith('/') ? 'folder' : 'file' }));
    return [...special, ...files];
  }

  private paths(workspace: WorkspaceRoots): Promise<readonly string[]> {
    const key = workspace.all.map((root) => root.path).join('\0');
    const listing = this.listing;
    if (listing && listing.key === key && this.now() - listing.at < FRESH_MS) return listing.paths;
    const { primary } = workspace;
    const paths = loadWorkspaceIgnore(workspace)
      .then((ignore) => listWorkspaceFolder(workspace, primary, primary.path, { recursive: true, limit: LISTED, ignore }))
      .then((l) => l.entries);
    this.listing = { key, at: this.now(), paths };
    return paths;
  }
}

/** The paths that match `needle` (lower case), best first; among equals the shorter, then by name. */
export function rankPaths(paths: readonly string[], needle: string): string[] {
  const scored = paths.flatMap((path) => {
    const score = fuzzyScore(path, needle);
    return score === undefined ? [] : [{ path, score }];
  });
  scored.sort((a, b) => b.score - a.score || a.path.length - b.path.length || a.path.localeCompare(b.path));
  return scored.map(({ path }) => path);
}

/**
 * How well `path` matches `needle` (lower case): undefined when its characters do not all occur in
 * order; higher for matches in the file name, at word starts and in runs.
 */
export function fuzzyScore(path: string, needle: string): number | undefined {
  if (needle === '') return 0;
  const lower = path.toLowerCase();
  const nameStart = lower.replace(/\/$/, '').lastIndexOf('/') + 1;
  let score = 0;
  let at = -1;
  let run = 0;
  for (const char of needle) {
    const next = lower.indexOf(char, at + 1);
    if (next < 0) return undefined;
    run = next === at + 1 ? run + 1 : 0;
    const previous = next === 0 ? '/' : lower[next - 1];
    score += 1 + run * 2 + (next >= nameStart ? 3 : 0) + (previous === '/' || previous === '-' || previous === '_' || previous === '.' ? 4 : 0);
    at = next;
  }
  return score;
}
