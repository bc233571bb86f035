// `--image FILE`: images go to a vision model in its native shape; anything else is refused clearly.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readTaskEvents } from '../../../src/core/log/task-log.js';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('smith CLI: --image', () => {
  const fx = useAgentFixture();
  const done = { text: '<attempt_completion>\n<result>A red dot.</result>\n</attempt_completion>' };

  test('an image reaches a vision model as an image part and is recorded in the log', async () => {
    const path = fx.ws.write('shot.png', PNG);
    fx.server.enqueue(done);
    const run = await runCli({ args: [...fx.cliArgs(), '--vision', '--image', path, '--output', 'json', 'What is in the screenshot?'] });
    assert.equal(run.code, 0, run.stderr);
    const messages = fx.server.requestAt(0).body.messages as Array<{ role: string; content: unknown }>;
    const parts = messages.filter((m) => m.role === 'user').flatMap((m) => (Array.isArray(m.content) ? m.content : [])) as Array<{
      type: string;
      image_url?: { url: string };
    }>;
    assert.deepEqual(
      parts.filter((p) => p.type === 'image_url').map((p) => p.image_url?.url),
      [`data:image/png;base64,${PNG.toString('base64')}`],
    );
    const { taskId } = JSON.parse(run.stdout) as { taskId: string };
    const started = readTaskEvents(fx.storage, taskId)[0];
    assert.deepEqual(started?.type === 'task_started' ? started.attachments?.map((a) => [a.kind, a.ref, a.chars]) : undefined, [
      ['image', 'shot.png', PNG.length],
    ]);
  });

  test('refused with a clear message: a model not known to take images, a file that is no image, a missing file', async () => {
    const path = fx.ws.write('shot.png', PNG);
    const noVision = await runCli({ args: [...fx.cliArgs(), '--image', path, 'Describe it'] });
    assert.equal(noVision.code, 2);
    assert.match(noVision.stderr, /scripted-model does not take images as far as Smith knows; pass --vision if it does/);
    const text = fx.ws.write('notes.txt', 'not an image');
    const notImage = await runCli({ args: [...fx.cliArgs(), '--vision', '--image', text, 'Describe it'] });
    assert.equal(notImage.code, 2);
    assert.match(notImage.stderr, /--image: notes\.txt is not a PNG, JPEG, GIF or WebP image/);
    const missing = await runCli({ args: [...fx.cliArgs(), '--vision', '--image', `${fx.ws.root}/nope.png`, 'Describe it'] });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.png could not be read: no such file/);
    assert.equal(fx.server.requests.length, 0, 'no request was made');
  });
});
