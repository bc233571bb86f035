// The files a sub-agent that edits may change: the paths it declared when it was started. An edit
// outside them is refused on the completed call (like a mode's file pattern), and two sub-agents
// run side by side only when their declarations cannot name the same file.
import { realPathMatches } from './permission-rules.js';
import type { WorkspaceRoots } from '../workspace/workspace-roots.js';

/** The declared paths of one sub-agent: workspace-relative patterns in .gitignore syntax (`src/auth/**`, `docs/api.md`). */
export interface EditScope {
  readonly patterns: readonly string[];
  /** Who declared them, for messages ("sub-agent 2"). */
  readonly owner: string;
}

/** Characters that start a pattern's wildcard part; the directories before the first one are its literal prefix. */
const WILDCARD = /[*?[\]{}\\]/;

/** What is wrong with a declaration, or undefined when every pattern can be used. */
export function declarationProblem(patterns: readonly string[]): string | undefined {
  if (patterns.length === 0) return 'declare at least one path or glob';
  for (const pattern of patterns) {
    const trimmed = pattern.trim();
    if (trimmed === '') return 'a declared path is empty';
    if (trimmed.startsWith('!')) return `"${pattern}": a declaration cannot exclude paths (no "!")`;
    if (trimmed.startsWith('/') || trimmed.startsWith('~') || /^[A-Za-z]:[\\/]/.test(trimmed))
      return `"${pattern}": declare paths relative to the workspace, not absolute`;
    if (trimmed.split(/[\\/]/).some((part) => part === '..')) return `"${pattern}": a declared path cannot go up with ".."`;
  }
  return undefined;
}

/**
 * Why an edit of `path` is refused under `scope`, or undefined when the real place the path leads
 * to (symlinks followed, `..` resolved) matches one of the declared patterns.
 */
export function editScopeRefusal(scope: EditScope, path: string, place: { readonly cwd: string; readonly workspace?: WorkspaceRoots }): string | undefined {
  if (scope.patterns.some((pattern) => realPathMatches(pattern.trim(), path, place))) return undefined;
  return `You (${scope.owner}) may only edit the paths declared when you were started (${scope.patterns.join(', ')}); "${path}" is not among them once links and ".." are followed, so the edit was not made. Edit only declared files, or report that the task needs more.`;
}

/**
 * Whether two declarations could name one file, judged conservatively from each pattern's literal
 * directory prefix: `src/auth/**` and `src/ui/*.ts` cannot meet; `src/**` meets both; a pattern
 * without a slash before its end (`*.md`, `config`) matches at any depth, so it meets everything.
 * `everything` stands for a sub-agent that can run commands, which may write anywhere.
 */
export function declarationsOverlap(a: readonly string[] | 'everything', b: readonly string[] | 'everything'): boolean {
  if (a === 'everything' || b === 'everything') return true;
  return a.some((left) => b.some((right) => prefixesMeet(literalPrefix(left), literalPrefix(right))));
}

/** The directories a pattern's matches must lie under (their segments); [] for anywhere. */
function literalPrefix(pattern: string): string[] {
  let text = pattern.trim().replace(/\\/g, '/');
  if (text.startsWith('./')) text = text.slice(1);
  // .gitignore: a pattern with no slash but a trailing one matches at any depth.
  const anchored = text.replace(/\/+$/, '').includes('/');
  if (!anchored) return [];
  const segments = text.split('/').filter((segment) => segment !== '' && segment !== '.');
  const prefix: string[] = [];
  for (const segment of segments) {
    if (WILDCARD.test(segment)) break;
    prefix.push(segment);
  }
  return prefix;
}

/** True when one prefix is the other or lies inside it. */
function prefixesMeet(a: readonly string[], b: readonly string[]): boolean {
  const shorter = a.length <= b.length ? a : b;
  const longer = shorter === a ? b : a;
  return shorter.every((segment, index) => segment === longer[index]);
}
