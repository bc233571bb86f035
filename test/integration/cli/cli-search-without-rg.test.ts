// A fresh machine has no ripgrep: the CLI installed from npm alone must still search, with the
// same results, the same ignore rules and the Read rules still withholding what they deny.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { allText, lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

const done: ScriptedReply = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };
const search = (path: string, regex: string): ScriptedReply => ({ text: `<search_files>\n<path>${path}</path>\n<regex>${regex}</regex>\n</search_files>` });

describe('smith CLI without ripgrep on PATH', () => {
  const fx = useAgentFixture();
  /** A PATH with node and nothing else: no rg anywhere on it. */
  let bin: string;
  before(() => {
    bin = mkdtempSync(join(tmpdir(), 'smith-no-rg-'));
    symlinkSync(process.execPath, join(bin, 'node'));
  });
  after(() => rmSync(bin, { recursive: true, force: true }));

  test('search_files answers with the built-in search: same format, ignore files and .smithignore honoured, Read rules withhold', async () => {
    fx.ws.write('src/queue.ts', 'export class Queue {\n  push() {}\n}\n');
    fx.ws.write('src/.env', 'TOKEN=Queue-secret\n');
    fx.ws.write('dist/queue.js', 'class Queue {}\n');
    fx.ws.write('private/notes.md', 'Queue notes\n');
    fx.ws.write('.gitignore', 'dist/\n');
    fx.ws.write('.smithignore', 'private/\n');
    fx.server.enqueue(search('.', 'class Queue'), done);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--deny', 'Read(.env)', 'Find the queue'], env: { PATH: bin } });
    assert.equal(run.code, 0, run.stderr);
    const result = lastUserText(fx.server.requestAt(1));
    assert.match(result, /Found 1 result\.\n\nsrc\/queue\.ts\n1 \| export class Queue \{\n2 \| {3}push\(\) \{\}/);
    assert.doesNotMatch(result, /needs ripgrep|dist\/queue|private\/notes/);
    assert.match(result, /withheld by the user's Read rules: [^\n]*src\/\.env/);
    for (const request of fx.server.requests) assert.doesNotMatch(allText(request), /Queue-secret/);
  });
});
