// @-mentions in the CLI's task text: attached as sent, recorded in the log, the same on resume.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { readTaskEvents } from '../../../src/core/log/task-log.js';
import { allText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

let page: Server;
let pageUrl: string;
before(async () => {
  page = createServer((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        '<html><head><title>Spec</title></head><body><article><h1>Spec</h1><p>The limit is forty-two requests per minute for every client of the public API.</p></article></body></html>',
      ),
  );
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/spec`;
});
after(() => new Promise<void>((resolve) => page.close(() => resolve())));

describe('smith CLI: @-mentions', () => {
  const fx = useAgentFixture();
  const done = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

  test('files and pages in the task text reach the model; the log records them; a resume sends the same context', async () => {
    fx.ws.write('src/limits.ts', 'export const LIMIT = 10;\n');
    fx.server.enqueue(done);
    const run = await runCli({
      args: [...fx.cliArgs(), '--output', 'json', `Set the limit in @src/limits.ts as @${pageUrl} says; also @problems and @nowhere.ts`],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`attached: @src/limits\\.ts, @${pageUrl.replace(/[.]/g, '\\.')}`));
    assert.match(run.stderr, /@problems works in the VS Code panel only\./);
    const sent = allText(fx.server.requestAt(0));
    assert.match(sent, /<file path="src\/limits\.ts">\nexport const LIMIT = 10;/);
    assert.match(sent, /forty-two requests per minute/);
    const { taskId } = JSON.parse(run.stdout) as { taskId: string };
    const started = readTaskEvents(fx.storage, taskId)[0];
    assert.deepEqual(started?.type === 'task_started' ? started.attachments?.map((a) => [a.kind, a.ref]) : undefined, [
      ['file', 'src/limits.ts'],
      ['url', pageUrl],
    ]);

    fx.ws.write('src/limits.ts', 'export const LIMIT = 42;\n');
    fx.server.enqueue(done);
    const resumed = await runCli({ args: [...fx.cliArgs(), '--resume', taskId, 'Check it again'] });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(allText(fx.server.requestAt(1)), /<file path="src\/limits\.ts">\nexport const LIMIT = 10;/, 'the context as it was sent');
  });
});
