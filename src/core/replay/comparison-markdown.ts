import type { ReplayComparison } from './run-replay.js';
import type { RunSummary } from './run-summary.js';
import { comparisonRows } from './comparison-rows.js';

/** A replay's comparison as a Markdown document: the two runs in one table, then each run's changes as a diff. */
export function comparisonMarkdown(c: ReplayComparison): string {
  const { original: a, replay: b } = c;
  const row = (name: string, left: string, right: string) => `| ${cell(name)} | ${cell(left)} | ${cell(right)} |`;
  const table = [
    '| | Original | Replay |',
    '|---|---|---|',
    ...comparisonRows(c).map((r) => row(r.detail ? `— ${r.label}` : `${r.label[0]!.toUpperCase()}${r.label.slice(1)}`, r.original, r.replay)),
  ].join('\n');
  return [
    `# Replay ${c.replayId}`,
    `Task: ${c.task.split('\n')[0]}`,
    `Scratch workspace: \`${c.workspace}\``,
    table,
    diffSection('Original run', a),
    diffSection('Replay', b),
  ]
    .join('\n\n')
    .concat('\n');
}

function diffSection(title: string, run: RunSummary): string {
  if (run.diff.patch === '') return `## ${title}\n\nNo file changed.`;
  const longest = Math.max(2, ...[...run.diff.patch.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `## ${title}\n\n${fence}diff\n${run.diff.patch.trimEnd()}\n${fence}`;
}

/** Table cells hold one line, and a pipe in a path or a model id must not end the cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
