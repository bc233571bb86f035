// Search and listing on a generated 50,000-file workspace (a git repository with a .gitignore,
// node_modules and build output): the search_files and list_files tool handlers, run through a
// small ToolContext, against running ripgrep directly on the same folder.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Host } from '../src/core/ports.js';
import { findExecutable } from '../src/core/search/find-executable.js';
import { listFilesTool } from '../src/core/tools/list-files.js';
import { searchFilesTool } from '../src/core/tools/search-files.js';
import type { ToolContext, ToolHandler } from '../src/core/tool-kit/tool-spec.js';
import { NOTHING_IGNORED } from '../src/core/workspace/ignore-policy.js';
import { listWorkspaceFiles } from '../src/core/workspace/file-listing.js';
import { NodeFileSystem } from '../src/core/workspace/node-file-system.js';
import { times, type BenchOptions, type BenchOutcome, type Row } from './report.js';
import { ratio, round, timeInterleaved } from './timing.js';

/** How many files of each kind the workspace gets. */
interface Shape {
  readonly packages: number;
  readonly features: number;
  readonly filesPerFeature: number;
  readonly testsPerPackage: number;
  readonly docs: number;
  readonly nodeModules: number;
  readonly filesPerModule: number;
  readonly distFiles: number;
  readonly coverageFiles: number;
}

const FULL: Shape = {
  packages: 20,
  features: 25,
  filesPerFeature: 60,
  testsPerPackage: 100,
  docs: 500,
  nodeModules: 300,
  filesPerModule: 40,
  distFiles: 4_000,
  coverageFiles: 1_500,
};
const QUICK: Shape = { ...FULL, packages: 4, nodeModules: 60, distFiles: 800, coverageFiles: 300, docs: 100 };

function fileCount(shape: Shape): number {
  return (
    shape.packages * (shape.features * shape.filesPerFeature + shape.testsPerPackage) +
    shape.docs +
    shape.nodeModules * shape.filesPerModule +
    shape.distFiles +
    shape.coverageFiles
  );
}

/** A small TypeScript module; one in ~600 defines a webhook handler (the rare search target). */
function sourceText(pkg: number, feature: number, file: number, serial: number): string {
  const name = `p${pkg}f${feature}n${file}`;
  const webhook = serial % 613 === 0 ? `\nexport function handleWebhook${name}(event: WebhookEvent): void {\n  queue.push(event);\n}\n` : '';
  return `import { logger } from '../../core/logger';\nimport type { Context } from '../../core/context';\n\n/** Feature ${feature} of package ${pkg}, part ${file}. */\nexport function run_${name}(context: Context, input: number): number {\n  logger.debug('run ${name}', { input });\n  const scaled = input * ${(serial % 17) + 2};\n  return scaled > ${serial % 1000} ? scaled : context.fallback;\n}\n${webhook}`;
}

/** Writes the workspace; returns its root and the number of files. */
function generateWorkspace(shape: Shape): { root: string; files: number } {
  const root = mkdtempSync(join(tmpdir(), 'smith-bench-workspace-'));
  let files = 0;
  const write = (dir: string, name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    files++;
  };
  write(root, '.gitignore', 'node_modules/\ndist/\ncoverage/\n*.log\n.cache/\n');
  write(root, 'package.json', '{ "name": "bench-monorepo", "private": true, "workspaces": ["packages/*"] }\n');
  let serial = 0;
  for (let p = 0; p < shape.packages; p++) {
    for (let f = 0; f < shape.features; f++) {
      const dir = join(root, 'packages', `pkg-${p}`, 'src', `feature-${f}`);
      mkdirSync(dir, { recursive: true });
      for (let n = 0; n < shape.filesPerFeature; n++) write(dir, `module-${n}.ts`, sourceText(p, f, n, serial++));
    }
    const tests = join(root, 'packages', `pkg-${p}`, 'test');
    mkdirSync(tests, { recursive: true });
    for (let t = 0; t < shape.testsPerPackage; t++)
      write(
        tests,
        `case-${t}.test.ts`,
        `import { run_p${p}f0n${t % 60} } from '../src/feature-0/module-${t % 60}';\n\ntest('case ${t}', () => expect(run_p${p}f0n${t % 60}({ fallback: 0 }, ${t})).toBeGreaterThanOrEqual(0));\n`,
      );
  }
  const docs = join(root, 'docs');
  mkdirSync(docs, { recursive: true });
  for (let d = 0; d < shape.docs; d++)
    write(docs, `page-${d}.md`, `# Page ${d}\n\nHow feature ${d % 25} works, with an example that calls \`run\` and logs through the logger.\n`);
  for (let m = 0; m < shape.nodeModules; m++) {
    const dir = join(root, 'node_modules', `dep-${m}`, 'lib');
    mkdirSync(dir, { recursive: true });
    for (let n = 0; n < shape.filesPerModule; n++)
      write(
        dir,
        `index-${n}.js`,
        `"use strict";\n// handleWebhook in a dependency must not be found\nfunction handleWebhookDep${m}_${n}(e) { return e; }\nmodule.exports = { handleWebhookDep${m}_${n} };\n`,
      );
  }
  for (const [folder, count] of [
    ['dist', shape.distFiles],
    ['coverage', shape.coverageFiles],
  ] as const) {
    for (let n = 0; n < count; n++) {
      const dir = join(root, folder, `chunk-${n % 50}`);
      if (n < 50) mkdirSync(dir, { recursive: true });
      write(dir, `out-${n}.js`, `export function handleWebhookBuilt${n}(e){return e}\n`);
    }
  }
  // A git repository, so that plain `rg` honours the .gitignore as Smith does.
  spawnSync('git', ['init', '-q'], { cwd: root });
  return { root, files };
}

/** The smallest ToolContext a read tool needs: real files, auto-approved, nothing ignored. */
function toolContext(cwd: string, rgPath: string): ToolContext {
  const host: Host = {
    files: new NodeFileSystem(),
    approvals: { ask: async () => ({ approved: true }) },
    questions: { ask: async () => undefined },
    clock: { now: () => Date.now() },
    processes: {
      start: () => {
        throw new Error('no processes in the search benchmark');
      },
    },
    ripgrepPath: async () => rgPath,
    notify: () => {},
  };
  return {
    host,
    cwd,
    signal: new AbortController().signal,
    callId: 'bench',
    taskId: 'bench',
    ignore: NOTHING_IGNORED,
    knownFile: () => undefined,
    progress: () => {},
    approve: async () => ({ approved: true }),
  };
}

async function runTool(tool: ToolHandler, params: Record<string, string>, context: ToolContext): Promise<string> {
  const outcome = await tool.execute(params, context);
  if (outcome.kind !== 'result') throw new Error(`${tool.spec.name} did not return a result: ${JSON.stringify(outcome)}`);
  return outcome.output;
}

/** Runs rg to completion, reading (and discarding) its output as a caller would. */
function runRg(rgPath: string, args: readonly string[], cwd: string): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(rgPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.on('error', fail);
    // rg exits 1 when nothing matched; that is still a finished search.
    child.on('close', (code) => (code === 0 || code === 1 ? done(bytes) : fail(new Error(`rg ${args.join(' ')} exited with ${code}`))));
  });
}

/** Runs the search and listing benchmark. */
export async function runSearchBench(options: BenchOptions): Promise<BenchOutcome> {
  const rgPath = await findExecutable('rg');
  if (!rgPath) {
    return {
      results: { todo: 'ripgrep (rg) not on PATH' },
      rows: [{ bench: 'search', metric: 'not run: ripgrep (rg) missing', value: 'n/a', target: '', status: 'TODO' }],
      notes: [],
    };
  }
  const shape = options.quick ? QUICK : FULL;
  const started = Date.now();
  const { root, files } = generateWorkspace(shape);
  options.log(`search: generated ${files} files in ${((Date.now() - started) / 1000).toFixed(1)} s (planned ${fileCount(shape)})`);
  try {
    const context = toolContext(root, rgPath);
    const rare = 'handleWebhook\\w*\\(';
    const common = 'logger\\.debug';
    // Sanity: the tools see the workspace as rg does (no node_modules, no dist).
    const rareOut = await runTool(searchFilesTool, { path: '.', regex: rare }, context);
    if (/node_modules|dist\//.test(rareOut)) throw new Error('search_files returned ignored files');
    const listing = await runTool(listFilesTool, { path: '.', recursive: 'true' }, context);
    const repeats = options.quick ? 3 : 5;
    const timings = await timeInterleaved(
      {
        rgRare: () => runRg(rgPath, [rare, '.'], root),
        searchRare: () => runTool(searchFilesTool, { path: '.', regex: rare }, context),
        rgCommon: () => runRg(rgPath, [common, '.'], root),
        searchCommon: () => runTool(searchFilesTool, { path: '.', regex: common }, context),
        rgFiles: () => runRg(rgPath, ['--files', '.'], root),
        listFiles: () => runTool(listFilesTool, { path: '.', recursive: 'true' }, context),
        fullWalk: () => listWorkspaceFiles({ root, dir: root, recursive: true, limit: 1_000_000, ignore: NOTHING_IGNORED }),
      },
      { warmup: 1, repeats },
    );
    const m = (k: keyof typeof timings) => timings[k].median;
    const results = {
      files,
      search_rare_over_rg: ratio(m('searchRare'), m('rgRare'), 2),
      search_common_over_rg: ratio(m('searchCommon'), m('rgCommon'), 2),
      list_files_over_rg_files: ratio(m('listFiles'), m('rgFiles'), 3),
      full_walk_over_rg_files: ratio(m('fullWalk'), m('rgFiles'), 2),
      rare_matches: Number(/Found (\d+)/.exec(rareOut)?.[1] ?? 0),
      list_files_entries: listing.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('(')).length,
      median_ms: Object.fromEntries(Object.entries(timings).map(([k, t]) => [k, round(t.median, 1)])),
    };
    options.log(`search: ${JSON.stringify(results.median_ms)}`);
    const rows: Row[] = [
      {
        bench: 'search',
        metric: `search_files / rg, rare regex (${results.rare_matches} matches, ${files} files)`,
        value: times(results.search_rare_over_rg, 2),
        target: '',
        status: 'info',
      },
      {
        bench: 'search',
        metric: '  search_files / rg, common regex (capped at 300 matches)',
        value: times(results.search_common_over_rg, 2),
        target: '',
        status: 'info',
      },
      {
        bench: 'search',
        metric: 'list_files recursive (200 entries) / rg --files',
        value: times(results.list_files_over_rg_files, 3),
        target: '',
        status: 'info',
      },
      { bench: 'search', metric: '  full JS walk (no limit) / rg --files', value: times(results.full_walk_over_rg_files, 2), target: '', status: 'info' },
    ];
    return { results, rows, notes: [] };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
