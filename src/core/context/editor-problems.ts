import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import { type ReadGuard, type WithheldFile, withheldNote } from '../workspace/read-guard.js';

/** One error or warning the editor reports (`@problems`). */
export interface EditorProblem {
  /** The file's absolute path (a document that is no file: its URI). */
  readonly path: string;
  /** The file as the user sees it (workspace-relative). */
  readonly label: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly severity: 'error' | 'warning';
  /** The diagnostic's text, which may quote the file's content. */
  readonly message: string;
  /** The tool that reported it (`ts`, `eslint`). */
  readonly source?: string;
}

/** Problems listed at most; the count of the rest is given. */
const MAX_PROBLEMS = 200;

/**
 * `@problems` as text. A diagnostic quotes its file (a misspelt word, an unexpected token), so the
 * problems of a file the Read rules withhold are left out and the file named, and those of a file
 * .smithignore excludes are left out and counted.
 */
export function formatProblems(problems: readonly EditorProblem[], filters: { readonly readGuard?: ReadGuard; readonly ignore?: IgnorePolicy } = {}): string {
  const lines: string[] = [];
  const withheld = new Map<string, WithheldFile>();
  let ignored = 0;
  let more = 0;
  for (const problem of problems) {
    if (filters.ignore?.isIgnored(problem.path)) {
      ignored++;
      continue;
    }
    const refusal = filters.readGuard?.refusal(problem.path);
    if (refusal) {
      if (!withheld.has(problem.path)) withheld.set(problem.path, { display: problem.label, refusal });
      continue;
    }
    if (lines.length >= MAX_PROBLEMS) {
      more++;
      continue;
    }
    lines.push(`${problem.label}:${problem.line}:${problem.column} ${problem.severity}: ${problem.message}${problem.source ? ` (${problem.source})` : ''}`);
  }
  if (more > 0) lines.push(`… and ${more} more`);
  if (ignored > 0) lines.push(`[${ignored} problem${ignored === 1 ? '' : 's'} in files excluded by ${filters.ignore?.source ?? '.smithignore'} left out.]`);
  const note = withheldNote([...withheld.values()]);
  if (note) lines.push(note);
  return lines.join('\n');
}
