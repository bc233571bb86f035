// docs/performance.md quotes the benchmarks' figures only through the block rendered from
// bench/results.json, so a figure in the document is always the one the latest run measured.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FIGURES_END, FIGURES_START, renderFigures, withFigures, type ResultsDocument } from '../../../bench/performance-doc.js';
import type { Row } from '../../../bench/report.js';

// npm runs the tests from the repository root.
const root = process.cwd();

describe('docs/performance.md figures', () => {
  test('the generated block is exactly what bench/results.json renders', () => {
    const document = readFileSync(join(root, 'docs', 'performance.md'), 'utf8');
    const results = JSON.parse(readFileSync(join(root, 'bench', 'results.json'), 'utf8')) as ResultsDocument;
    assert.equal(withFigures(document, results), document, 'run `npm run bench:doc` (or `npm run bench`) after changing bench/results.json');
  });

  test('every benchmark in results.json has rows, and every row that has a target has a status from it', () => {
    const results = JSON.parse(readFileSync(join(root, 'bench', 'results.json'), 'utf8')) as ResultsDocument;
    const rows = Object.values(results.rows ?? {}).flat();
    assert.ok(rows.length > 0, 'results.json has no rows');
    for (const row of rows)
      if (row.target !== '') assert.ok(row.status === 'met' || row.status === 'MISSED' || row.status === 'TODO', `${row.metric}: ${row.status}`);
  });

  test('the block lists the rows, counts the misses and keeps the text around it', () => {
    const row = (metric: string, target: string, status: Row['status']): Row => ({ bench: 'b', metric, value: '2.0x', target, status });
    const results: ResultsDocument = {
      rows: { b: [row('fast', '<= 3x', 'met'), row('slow', '<= 1x', 'MISSED'), row('info', '', 'info')] },
      notes: { b: ['b: target missed: slow.'] },
      meta: {
        cpus: '2 x test',
        platform: 'linux x64',
        node: 'v20',
        runs: { b: { date: '2026-01-02T03:04:05.000Z', seconds: 1.5, quick: false, load_average_1_5_15: { before: [0.5, 0, 0], after: [1, 0, 0] } } },
      },
    };
    const block = renderFigures(results);
    assert.match(block, /2 figures have a target; 1 missed\./);
    assert.match(block, /b\s+slow\s+2\.0x\s+<= 1x\s+MISSED/);
    assert.match(block, /\| b \| 2026-01-02 03:04 UTC \| 1\.5 \| 0\.5 → 1 \|/);
    assert.match(block, /- b: target missed: slow\./);
    const document = `intro\n${FIGURES_START}\nold\n${FIGURES_END}\noutro\n`;
    assert.equal(withFigures(document, results), `intro\n${block}\noutro\n`);
    assert.throws(() => withFigures('no markers', results), /lost its figures markers/);
  });
});
