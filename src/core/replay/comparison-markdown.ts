import type { ReplayComparison } from './run-replay.js';
import type { RunSummary } from './run-summary.js';

/** A replay's comparison as a Markdown document: the two runs in one table, then each run's changes as a diff. */
export function comparisonMarkdown(c: ReplayComparison): string {
  const { original: a, replay: b } = c;
  const row = (name: string, left: string, right: string) => `| ${cell(name)} | ${cell(left)} | ${cell(right)} |`;
  const tools = [...new Set([...Object.keys(a.tools), ...Object.keys(b.tools)])];
  const files = [...new Set([...a.diff.files.map((f) => f.path), ...b.diff.files.map((f) => f.path)])].sort();
  const table = [
    '| | Original | Replay |',
    '|---|---|---|',
    row('Task', a.taskId, b.taskId),
    row('Model', `${a.provider} ${a.model}`, `${b.provider} ${b.model}`),
    row('Skill', a.skill, b.skill),
    row('Status', a.status, b.status),
    row('Requests', String(a.requests), String(b.requests)),
    row('Tool calls', String(a.toolCalls), String(b.toolCalls)),
    ...tools.map((tool) => row(`— ${tool}`, String(a.tools[tool] ?? 0), String(b.tools[tool] ?? 0))),
    row('Mistakes', String(a.mistakes), String(b.mistakes)),
    row('Approvals', approvals(a), approvals(b)),
    row('Tokens in', count(a.tokens.input), count(b.tokens.input)),
    row('Tokens out', count(a.tokens.output), count(b.tokens.output)),
    row('Cost', cost(a.cost), cost(b.cost)),
    row('Time', `${(a.durationMs / 1000).toFixed(1)} s`, `${(b.durationMs / 1000).toFixed(1)} s`),
    row('Files changed', String(a.diff.files.length), String(b.diff.files.length)),
    ...files.map((path) => row(`— ${path}`, change(a, path), change(b, path))),
  ].join('\n');
  return [
    `# Replay ${c.replayId}`,
    `Task: ${c.task.split('\n')[0]}`,
    `Scratch workspace: \`${c.workspace}\``,
    table,
    diffSection('Original run', a),
    diffSection('Replay', b),
  ].join('\n\n').concat('\n');
}

function diffSection(title: string, run: RunSummary): string {
  if (run.diff.patch === '') return `## ${title}\n\nNo file changed.`;
  const longest = Math.max(2, ...[...run.diff.patch.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `## ${title}\n\n${fence}diff\n${run.diff.patch.trimEnd()}\n${fence}`;
}

function change(run: RunSummary, path: string): string {
  const file = run.diff.files.find((f) => f.path === path);
  return file ? `${file.change} +${file.added} -${file.removed}` : '—';
}

function approvals(run: RunSummary): string {
  return `${run.approvals.approved} approved, ${run.approvals.rejected} rejected`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function cost(value: number | null): string {
  return value === null ? 'unknown' : `$${value.toFixed(4)}`;
}

/** Table cells hold one line, and a pipe in a path or a model id must not end the cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
