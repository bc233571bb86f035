// Start-up and size: `node dist/cli.js --version` against `node -e 0` (the cost of Node itself),
// `--list-models` (which loads its own bundle, dist/list-models-command.js, and needs no network
// with the catalogue of a hosted provider), and the size of the .vsix, packaged with vsce into a
// temporary folder.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { statusOf, times, type BenchOptions, type BenchOutcome, type Row } from './report.js';
import { ratio, round, timeInterleaved } from './timing.js';

/** `npm run package` (production build) makes a .vsix of at most this many bytes. */
const VSIX_TARGET_BYTES = 6 * 1024 * 1024;
/** `smith --version` and `smith --list-models` may cost at most this many times `node -e 0` (the cost of Node itself). */
const CLI_START_TARGET = 2;

/** Runs a command to completion; throws with its output when it fails. */
function run(command: string, args: readonly string[], cwd: string, timeoutMs = 180_000): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: timeoutMs, env: { ...process.env, NO_COLOR: '1' } });
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status ?? result.signal}): ${(result.stderr || result.stdout || String(result.error ?? '')).trim().slice(0, 800)}`,
    );
  return result.stdout;
}

/** vsce flags for what the manifest lacks, as scripts/workbench/package-vsix.mjs passes them. */
function vsceFlags(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { repository?: unknown };
  const flags: string[] = [];
  if (!manifest.repository) flags.push('--allow-missing-repository', '--no-rewrite-relative-links');
  if (!['LICENSE', 'LICENSE.md', 'LICENSE.txt'].some((name) => existsSync(join(dir, name)))) flags.push('--skip-license');
  return flags;
}

/**
 * A release-like package without touching the repository's dist/: the sources are copied into a
 * temporary folder (node_modules linked), built with `node esbuild.mjs --production` and
 * packaged there with vsce and the repository's .vscodeignore.
 */
function packageProduction(root: string, work: string): { vsix: string; cli: string } {
  const stage = join(work, 'stage');
  mkdirSync(stage, { recursive: true });
  for (const entry of [
    'package.json',
    'README.md',
    'LICENSE',
    'CHANGELOG.md',
    '.vscodeignore',
    'esbuild.mjs',
    'tsconfig.json',
    'src',
    'webview-ui',
    'scripts',
    'media',
  ]) {
    if (existsSync(join(root, entry))) cpSync(join(root, entry), join(stage, entry), { recursive: true });
  }
  if (!existsSync(join(stage, '.vscodeignore'))) {
    const fallback = join(root, 'scripts', 'workbench', 'fallback.vscodeignore');
    writeFileSync(
      join(stage, '.vscodeignore'),
      existsSync(fallback) ? readFileSync(fallback) : '**\n!package.json\n!README.md\n!LICENSE*\n!dist/**\n!media/**\n',
    );
  }
  symlinkSync(join(root, 'node_modules'), join(stage, 'node_modules'), 'dir');
  run(process.execPath, ['esbuild.mjs', '--production'], stage);
  const vsix = join(work, 'smith-production.vsix');
  run(process.execPath, [join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', ...vsceFlags(stage), '--out', vsix], stage);
  return { vsix, cli: join(stage, 'dist', 'cli.js') };
}

/** The package of the current dist/ (what `npm run build` made), through the workbench's own packager. */
async function packageCurrentDist(root: string, work: string): Promise<string> {
  const script = join(root, 'scripts', 'workbench', 'package-vsix.mjs');
  if (!existsSync(script)) throw new Error('scripts/workbench/package-vsix.mjs does not exist yet');
  const { packageVsix } = (await import(pathToFileURL(script).href)) as { packageVsix(options: { out: string }): string };
  return packageVsix({ out: join(work, 'smith-dist.vsix') });
}

/** Runs the start-up and size benchmark. */
export async function runStartupBench(options: BenchOptions): Promise<BenchOutcome> {
  const cli = join(options.root, 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build first (npm run build)`);
  const notes: string[] = [];
  const work = mkdtempSync(join(tmpdir(), 'smith-bench-package-'));
  try {
    let production: { vsix: string; cli: string } | undefined;
    let productionError: string | undefined;
    if (!options.quick) {
      try {
        production = packageProduction(options.root, work);
      } catch (error) {
        productionError = error instanceof Error ? error.message : String(error);
        notes.push(`startup: the production package could not be built: ${productionError}`);
      }
    }
    let distVsix: string | undefined;
    try {
      distVsix = await packageCurrentDist(options.root, work);
    } catch (error) {
      notes.push(`startup: packaging the current dist/ failed: ${error instanceof Error ? error.message : String(error)}`);
    }

    const node = process.execPath;
    const spawnTimed = (args: string[]) => () => {
      const result = spawnSync(node, args, { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.status}: ${result.stderr}`);
    };
    const repeats = options.quick ? 7 : 21;
    const runs: Record<string, () => void> = {
      node: spawnTimed(['-e', '0']),
      cli: spawnTimed([cli, '--version']),
      fullCli: spawnTimed([cli, '--list-models', '--provider', 'anthropic']),
    };
    if (production && existsSync(production.cli)) {
      runs.productionCli = spawnTimed([production.cli, '--version']);
      runs.productionListModels = spawnTimed([production.cli, '--list-models', '--provider', 'anthropic']);
    }
    const timings = await timeInterleaved(runs, { warmup: 2, repeats });
    const cliRatio = ratio(timings.cli!.median, timings.node!.median, 2);
    const fullRatio = ratio(timings.fullCli!.median, timings.node!.median, 2);
    const productionTiming = timings.productionCli;
    const productionRatio = productionTiming ? ratio(productionTiming.median, timings.node!.median, 2) : null;
    const productionListTiming = timings.productionListModels;
    const productionListRatio = productionListTiming ? ratio(productionListTiming.median, timings.node!.median, 2) : null;
    options.log(
      `startup: node -e 0 ${timings.node!.median.toFixed(1)} ms, cli --version ${timings.cli!.median.toFixed(1)} ms, cli --list-models ${timings.fullCli!.median.toFixed(1)} ms${productionTiming ? `, production cli ${productionTiming.median.toFixed(1)} ms` : ''}`,
    );

    const vsixBytes = production ? statSync(production.vsix).size : null;
    const distVsixBytes = distVsix ? statSync(distVsix).size : null;
    if (vsixBytes === null)
      notes.push(
        options.quick
          ? 'startup: --quick skips the production build; vsix_bytes is null (see vsix_dist_bytes).'
          : 'startup: TODO vsix_bytes is null: the production package could not be built (see above).',
      );
    const rows: Row[] = [
      {
        bench: 'startup',
        metric: '`node dist/cli.js --version` / `node -e 0`',
        value: times(cliRatio, 2),
        target: `<= ${CLI_START_TARGET}x`,
        status: statusOf(cliRatio, (v) => v <= CLI_START_TARGET),
      },
      {
        bench: 'startup',
        metric: '  same, production (minified) build',
        value: times(productionRatio, 2),
        target: `<= ${CLI_START_TARGET}x`,
        status: statusOf(productionRatio, (v) => v <= CLI_START_TARGET),
      },
      {
        bench: 'startup',
        metric: '`node dist/cli.js --list-models` / `node -e 0`',
        value: times(fullRatio, 2),
        target: `<= ${CLI_START_TARGET}x`,
        status: statusOf(fullRatio, (v) => v <= CLI_START_TARGET),
      },
      {
        bench: 'startup',
        metric: '  same, production (minified) build',
        value: times(productionListRatio, 2),
        target: `<= ${CLI_START_TARGET}x`,
        status: statusOf(productionListRatio, (v) => v <= CLI_START_TARGET),
      },
      {
        bench: 'size',
        metric: '.vsix bytes, production build (npm run package)',
        value: vsixBytes === null ? 'n/a' : `${vsixBytes} (${(vsixBytes / 2 ** 20).toFixed(2)} MiB)`,
        target: '<= 6 MiB',
        status: statusOf(vsixBytes, (v) => v <= VSIX_TARGET_BYTES),
      },
      {
        bench: 'size',
        metric: '  .vsix of the current dist/ (npm run build)',
        value: distVsixBytes === null ? 'n/a' : `${distVsixBytes} (${(distVsixBytes / 2 ** 20).toFixed(2)} MiB)`,
        target: '',
        status: distVsixBytes === null ? 'TODO' : 'info',
      },
    ];
    return {
      results: {
        startup: {
          cli_version_over_node: cliRatio,
          production_cli_version_over_node: productionRatio,
          full_cli_list_models_over_node: fullRatio,
          production_list_models_over_node: productionListRatio,
          median_ms: Object.fromEntries(Object.entries(timings).map(([k, t]) => [k, round(t.median, 1)])),
        },
        vsix_bytes: vsixBytes,
        vsix_dist_bytes: distVsixBytes,
        vsix_target_bytes: VSIX_TARGET_BYTES,
        ...(productionError ? { vsix_error: productionError } : {}),
      },
      rows,
      notes,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
