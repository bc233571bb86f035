import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WebviewRequest } from '../../../src/shared/protocol.js';
import { createRequestClient } from '../../../src/shared/request-client.js';

describe('createRequestClient', () => {
  test('each request gets a unique id and resolves on its ok reply', async () => {
    const sent: WebviewRequest[] = [];
    const client = createRequestClient((m) => sent.push(m), { prefix: 'p' });
    const first = client.request({ type: 'newTask', text: 'a' });
    const second = client.request({ type: 'cancelTask' });
    assert.deepEqual(sent, [
      { type: 'newTask', text: 'a', id: 'p-1' },
      { type: 'cancelTask', id: 'p-2' },
    ]);
    assert.equal(client.handleMessage({ type: 'reply', id: 'p-2', ok: true }), true);
    assert.equal(client.handleMessage({ type: 'reply', id: 'p-1', ok: true }), true);
    await Promise.all([first, second]);
  });

  test('an error reply rejects with the host message; unknown replies and other messages are not consumed', async () => {
    const client = createRequestClient(() => {}, { prefix: 'p' });
    const pending = client.request({ type: 'retry' });
    assert.equal(client.handleMessage({ type: 'reply', id: 'someone-else', ok: true }), false);
    assert.equal(client.handleMessage({ type: 'commandOutput', callId: 'c', text: 'x' }), false);
    assert.equal(client.handleMessage({ type: 'reply', id: 'p-1', ok: false, error: 'No task to retry' }), true);
    await assert.rejects(pending, /No task to retry/);
    assert.equal(client.handleMessage({ type: 'reply', id: 'p-1', ok: true }), false, 'settled once');
  });

  test('a throwing post rejects, and dispose rejects what is pending', async () => {
    const failing = createRequestClient(() => {
      throw new Error('webview disposed');
    });
    await assert.rejects(failing.request({ type: 'retry' }), /webview disposed/);
    const client = createRequestClient(() => {});
    const pending = client.request({ type: 'retry' });
    client.dispose();
    await assert.rejects(pending, /closed/);
  });

  test('default ids differ between clients (page reloads)', () => {
    const ids: string[] = [];
    const clients = [createRequestClient((m) => ids.push(m.id)), createRequestClient((m) => ids.push(m.id))];
    for (const client of clients) client.request({ type: 'retry' }).catch(() => {});
    for (const client of clients) client.dispose();
    assert.notEqual(ids[0], ids[1]);
  });
});

describe('request timeouts', () => {
  test('a request with no reply fails after its timeout, naming the request; a late reply is ignored', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const client = createRequestClient(() => {}, { prefix: 'p', timeoutMs: 5_000 });
    const pending = client.request({ type: 'cancelTask' });
    t.mock.timers.tick(4_999);
    let settled = false;
    pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    await Promise.resolve();
    assert.equal(settled, false, 'settled before its timeout');
    t.mock.timers.tick(1);
    await assert.rejects(pending, /did not answer "cancelTask" within 5 s/);
    assert.equal(client.handleMessage({ type: 'reply', id: 'p-1', ok: true }), false, 'a late reply settles nothing');
  });

  test('a reply in time clears the timer: the request resolves once and never rejects later', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const client = createRequestClient(() => {}, { prefix: 'p', timeoutMs: 1_000 });
    const pending = client.request({ type: 'retry' });
    client.handleMessage({ type: 'reply', id: 'p-1', ok: true });
    t.mock.timers.tick(10_000);
    await pending;
  });
});
