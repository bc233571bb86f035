// The built CLI loads what a command needs and nothing more: listing models reads neither the
// whole CLI nor any of the lazily loaded bundles (SDKs, tokenizer, tree-sitter, MCP, HTML parsers),
// and prints exactly what the whole CLI prints; a task loads the bundles it uses from dist/lazy/
// and they work there (a request through the provider's SDK, tokens counted, an outline parsed).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { CLI_PATH, runCli } from '../../helpers/cli-runner.js';

const DIST = dirname(CLI_PATH);

describe('smith CLI: lazily loaded bundles', () => {
  const fx = useAgentFixture();
  let probeDir: string;
  let probe: string;
  before(() => {
    probeDir = mkdtempSync(join(tmpdir(), 'smith-loaded-'));
    probe = join(probeDir, 'record-loaded.cjs');
    // Preloaded into the CLI's process: at exit, writes every module file it loaded.
    writeFileSync(
      probe,
      `process.on('exit', () => require('node:fs').writeFileSync(process.env.SMITH_LOADED_REPORT, JSON.stringify(Object.keys(require.cache))));`,
    );
  });
  after(() => rmSync(probeDir, { recursive: true, force: true }));

  /** Runs the CLI; the files of dist/ it loaded, relative to dist/. */
  const runRecorded = async (args: string[], env: Record<string, string> = {}) => {
    const report = join(probeDir, `loaded-${Math.random().toString(36).slice(2)}.json`);
    const run = await runCli({ args, env: { ...env, NODE_OPTIONS: `--require ${probe}`, SMITH_LOADED_REPORT: report } });
    const loaded = (JSON.parse(readFileSync(report, 'utf8')) as string[])
      .filter((file) => file.startsWith(DIST))
      .map((file) => relative(DIST, file))
      .sort();
    return { run, loaded };
  };

  /** The output of the whole CLI (dist/cli-main.js) for the same command line. */
  const wholeCli = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ['-e', `require(${JSON.stringify(join(DIST, 'cli-main.js'))}).runCli(process.argv.slice(1))`, '--', ...args], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
    });

  for (const args of [
    ['--provider', 'anthropic', '--list-models'],
    ['--provider', 'gemini', '--list-models', '--output', 'json'],
    ['--provider', 'openai', '--list-models'],
  ]) {
    test(`${args.join(' ')}: only the listing bundle is loaded, and it prints what the whole CLI prints`, async () => {
      const full = [...args, '--storage', fx.storage];
      const { run, loaded } = await runRecorded(full);
      assert.deepEqual(loaded, ['cli.js', 'list-models-command.js']);
      const whole = wholeCli(full);
      assert.equal(run.stdout, whole.stdout);
      assert.equal(run.stderr, whole.stderr);
      assert.equal(run.code, whole.status);
    });
  }

  test('a command line with a mistake is reported by the whole CLI, as any other', async () => {
    const args = ['--provider', 'nonsense', '--list-models', '--storage', fx.storage];
    const { run, loaded } = await runRecorded(args);
    assert.deepEqual(loaded, ['cli-main.js', 'cli.js']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^smith: .*nonsense[\s\S]*Run smith --help for usage\.\n$/);
  });

  test('a task loads the SDK, the tokenizer and tree-sitter from dist/lazy/, and they work there', async () => {
    fx.ws.write('src/shapes.ts', 'export class Circle {\n  area(): number {\n    return 1;\n  }\n}\nexport function makeSquare(): void {}\n');
    fx.server.enqueue(
      { text: '<list_code_definition_names>\n<path>src</path>\n</list_code_definition_names>' },
      { text: '<attempt_completion>\n<result>Listed.</result>\n</attempt_completion>' },
    );
    const { run, loaded } = await runRecorded([...fx.cliArgs(), '--yes', 'Outline src'], { SMITH_API_KEY: 'test-key' });
    assert.equal(run.code, 0, run.stderr);
    for (const bundle of ['cli-main.js', 'lazy/openai-sdk.js', 'lazy/o200k-tokenizer.js', 'lazy/web-tree-sitter.js'])
      assert.ok(loaded.includes(bundle), `${bundle} was not loaded: ${loaded.join(', ')}`);
    for (const unused of ['lazy/anthropic-sdk.js', 'lazy/gemini-sdk.js', 'lazy/html-parsers.js', 'lazy/mcp-sdk.js'])
      assert.ok(!loaded.includes(unused), `${unused} was loaded`);
    const outline = JSON.stringify(fx.server.requestAt(1));
    assert.match(outline, /Circle/);
    assert.match(outline, /makeSquare/);
  });
});
