import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { MAX_OUTLINED_FILES, listCodeDefinitionNamesTool } from '../../../src/core/tools/list-code-definition-names.js';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { loadSmithIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { EXPECTED_DEFINITION_NAMES } from '../../fixtures/code/expected-definitions.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const FIXTURES = join(__dirname, '../../fixtures/code');

function output(outcome: ToolOutcome): string {
  assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
  return outcome.kind === 'result' ? outcome.output : '';
}

function mistakeText(outcome: ToolOutcome): string {
  assert.equal(outcome.kind === 'error' && outcome.mistake, true, JSON.stringify(outcome));
  return outcome.kind === 'error' ? outcome.error : '';
}

describe('list_code_definition_names', () => {
  let ws: TempWorkspace;
  let harness: ToolHarness;
  beforeEach(() => {
    ws = createTempWorkspace();
    harness = new ToolHarness(ws.root);
  });
  afterEach(() => ws.dispose());

  test("prints a file's definition lines in Cline's layout, without asking inside the workspace", async () => {
    ws.write('src/app.ts', 'import x from "y";\n\nclass App {\n  start() {\n  }\n}\n');
    const outcome = await harness.run(listCodeDefinitionNamesTool, { path: 'src/app.ts' });
    assert.equal(output(outcome), 'src/app.ts\n|----\n│class App {\n│  start() {\n|----\n');
    assert.equal(harness.asked.length, 0);
  });

  test('separates definitions that are not on adjacent lines', async () => {
    cpSync(join(FIXTURES, 'sample.go'), join(ws.root, 'shapes.go'));
    const outcome = await harness.run(listCodeDefinitionNamesTool, { path: 'shapes.go' });
    assert.equal(
      output(outcome),
      [
        'shapes.go',
        '|----',
        '│type Shape interface {',
        '|----',
        '│type Circle struct {',
        '|----',
        '│type Meters = float64',
        '|----',
        '│func (c Circle) Area() float64 {',
        '|----',
        '│func NewCircle(r float64) *Circle {',
        '|----',
        '',
      ].join('\n'),
    );
  });

  test('outlines every supported file directly in a folder, in name order', async () => {
    cpSync(FIXTURES, join(ws.root, 'samples'), { recursive: true, filter: (source) => !source.endsWith('.ts') || /sample\.ts$/.test(source) });
    ws.write('samples/README.md', '# not source\n');
    ws.write('samples/nested/deep.ts', 'export function deep() {}\n');
    const text = output(await harness.run(listCodeDefinitionNamesTool, { path: 'samples' }));
    const headers = text.split('\n').filter((line) => line.startsWith('samples/'));
    assert.deepEqual(
      headers,
      Object.keys(EXPECTED_DEFINITION_NAMES)
        .sort()
        .map((file) => `samples/${file}`),
    );
    assert.match(text, /samples\/sample\.rb\n\|----\n│module Billing\n│ {2}class Invoice < Base\n│ {4}def initialize\(total\)\n/);
    assert.doesNotMatch(text, /deep|README/);
  });

  test('skips files without definitions and names the workspace root as "."', async () => {
    ws.write('a.py', 'def run():\n    pass\n');
    ws.write('empty.js', '// nothing here\n');
    ws.write('z.rb', 'class Z\nend\n');
    const text = output(await harness.run(listCodeDefinitionNamesTool, { path: '.' }));
    assert.equal(text, 'a.py\n|----\n│def run():\n|----\n\nz.rb\n|----\n│class Z\n|----');
  });

  test(`stops at ${MAX_OUTLINED_FILES} files and says how many there are`, async () => {
    for (let i = 0; i < MAX_OUTLINED_FILES + 5; i++) ws.write(`many/f${String(i).padStart(2, '0')}.ts`, `export function f${i}() {}\n`);
    const text = output(await harness.run(listCodeDefinitionNamesTool, { path: 'many' }));
    assert.equal(text.split('\n').filter((line) => /^many\/f\d+\.ts$/.test(line)).length, MAX_OUTLINED_FILES);
    assert.match(text, /many\/f49\.ts/);
    assert.doesNotMatch(text, /many\/f50\.ts/);
    assert.match(text, /\[Outlined the first 50 of 55 source files in many; name a file to outline one of the others\.\]$/);
  });

  test('says so when nothing is found', async () => {
    ws.write('blank.ts', 'const answer = 42;\n');
    assert.equal(output(await harness.run(listCodeDefinitionNamesTool, { path: 'blank.ts' })), 'No source code definitions found in blank.ts.');
    ws.write('docs/guide.md', '# Guide\n');
    const noSource = output(await harness.run(listCodeDefinitionNamesTool, { path: 'docs' }));
    assert.match(noSource, /^No source files of a supported language directly in docs \(subfolders are not searched/);
    assert.match(noSource, /\.py/);
    ws.write('consts/a.js', 'const a = 1;\n');
    assert.equal(
      output(await harness.run(listCodeDefinitionNamesTool, { path: 'consts' })),
      'No source code definitions found in the 1 source file directly in consts.',
    );
  });

  test('refuses an unsupported file type, listing the supported extensions', async () => {
    ws.write('notes.md', '# Notes\n');
    const error = mistakeText(await harness.run(listCodeDefinitionNamesTool, { path: 'notes.md' }));
    assert.match(error, /^Cannot list definitions in notes\.md: its file type is not supported\. Supported extensions: /);
    for (const ext of ['.ts', '.tsx', '.js', '.py', '.go', '.rs', '.java', '.c', '.cpp', '.cs', '.rb', '.php']) {
      assert.ok(error.includes(`${ext},`) || error.includes(`${ext}.`), `${ext} missing from: ${error}`);
    }
  });

  test('reports a missing path as a mistake', async () => {
    assert.match(mistakeText(await harness.run(listCodeDefinitionNamesTool, { path: 'src/nope.ts' })), /^Path not found: src\/nope\.ts\./);
  });

  test('refuses paths that .smithignore excludes, and leaves ignored files out of a folder', async () => {
    ws.write('.smithignore', 'secret/\nprivate.ts\n');
    ws.write('secret/keys.ts', 'export function key() {}\n');
    ws.write('src/private.ts', 'export function hidden() {}\n');
    ws.write('src/public.ts', 'export function shown() {}\n');
    harness.ignore = await loadSmithIgnore(ws.root);
    assert.match(mistakeText(await harness.run(listCodeDefinitionNamesTool, { path: 'secret' })), /secret.*\.smithignore/);
    assert.match(mistakeText(await harness.run(listCodeDefinitionNamesTool, { path: 'secret/keys.ts' })), /\.smithignore/);
    assert.match(mistakeText(await harness.run(listCodeDefinitionNamesTool, { path: 'src/private.ts' })), /\.smithignore/);
    assert.equal(output(await harness.run(listCodeDefinitionNamesTool, { path: 'src' })), 'src/public.ts\n|----\n│export function shown() {}\n|----');
  });

  test('asks before reading outside the workspace and honours the answer', async () => {
    const outside = createTempWorkspace('smith-outside-');
    try {
      outside.write('lib/tool.py', 'class Tool:\n    def run(self):\n        pass\n');
      harness.answers = [{ approved: false, feedback: 'not that folder' }, { approved: true }];
      const rejected = await harness.run(listCodeDefinitionNamesTool, { path: join(outside.root, 'lib') });
      assert.deepEqual(rejected, { kind: 'rejected', feedback: 'not that folder' });
      const approved = await harness.run(listCodeDefinitionNamesTool, { path: join(outside.root, 'lib/tool.py') });
      assert.equal(output(approved), `${join(outside.root, 'lib/tool.py')}\n|----\n│class Tool:\n│    def run(self):\n|----\n`);
      assert.deepEqual(
        harness.asked.map((request) => [request.tool, request.summary, request.path]),
        [
          ['list_code_definition_names', `List code definitions in ${join(outside.root, 'lib')}`, join(outside.root, 'lib')],
          ['list_code_definition_names', `List code definitions in ${join(outside.root, 'lib/tool.py')}`, join(outside.root, 'lib/tool.py')],
        ],
      );
    } finally {
      outside.dispose();
    }
  });

  test('skips binary and oversized files with a reason', async () => {
    ws.write('bin/blob.ts', Uint8Array.from([0x63, 0x00, 0x01, 0x02]));
    ws.write('bin/huge.js', `${'// padding\n'.repeat(100_000)}function late() {}\n`);
    ws.write('bin/ok.ts', 'export class Ok {}\n');
    const single = await harness.run(listCodeDefinitionNamesTool, { path: 'bin/blob.ts' });
    assert.deepEqual(single, { kind: 'error', error: 'Skipped bin/blob.ts: it is a binary file, not source text.', mistake: false });
    const text = output(await harness.run(listCodeDefinitionNamesTool, { path: 'bin' }));
    assert.match(text, /^bin\/ok\.ts\n\|----\n│export class Ok \{\}\n\|----\n/);
    assert.match(text, /\[Skipped bin\/blob\.ts: it is a binary file, not source text\.\]/);
    assert.match(text, /\[Skipped bin\/huge\.js: too large to parse \(1100019 bytes, limit 1000000\); use read_file with a line range\.\]/);
  });

  test('stops between files when the task is aborted', async () => {
    ws.write('src/a.ts', 'export function a() {}\n');
    const controller = new AbortController();
    controller.abort(new Error('stopped by the user'));
    await assert.rejects(harness.run(listCodeDefinitionNamesTool, { path: 'src' }, controller.signal), /stopped by the user/);
  });
});
