import { memo } from 'react';

/** Long diffs start folded so the approval buttons stay in view. */
const FOLD_AFTER_LINES = 40;
/** Lines rendered at most; a 50,000-line rewrite is reviewed in the editor's diff view, not here. */
const RENDER_CAP = 3000;

function lineClass(line: string, inHunk: boolean): string {
  if (line.startsWith('@@')) return 'diff-hunk';
  if (!inHunk) return 'diff-meta';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  return 'diff-ctx';
}

/** A coloured unified diff; collapsible when long. */
export const DiffView = memo(function DiffView({ diff }: { diff: string }) {
  const lines = diff.replace(/\n$/, '').split('\n');
  let inHunk = !lines.some((l) => l.startsWith('@@'));
  const rendered = lines.slice(0, RENDER_CAP).map((line, index) => {
    if (line.startsWith('@@')) inHunk = true;
    return (
      // A diff's lines repeat and never reorder: their position is their identity.
      // biome-ignore lint/suspicious/noArrayIndexKey: see above
      <span key={index} className={`diff-line ${lineClass(line, inHunk)}`}>
        {line === '' ? ' ' : line}
        {'\n'}
      </span>
    );
  });
  const body = (
    <pre className="diff" role="group" aria-label="Diff">
      {rendered}
      {lines.length > RENDER_CAP && <span className="diff-line diff-meta">… {lines.length - RENDER_CAP} more lines</span>}
    </pre>
  );
  if (lines.length <= FOLD_AFTER_LINES) return body;
  return (
    <details className="diff-fold">
      <summary>Show diff ({lines.length} lines)</summary>
      {body}
    </details>
  );
});
