import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WebviewRequest } from '../../../src/shared/protocol.js';
import { createRequestClient } from '../../../webview-ui/src/state/request-client.js';

describe('createRequestClient', () => {
  test('each request gets a unique id and resolves on its ok reply', async () => {
    const sent: WebviewRequest[] = [];
    const client = createRequestClient((m) => sent.push(m), 'p');
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
    const client = createRequestClient(() => {}, 'p');
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
    createRequestClient((m) => ids.push(m.id)).request({ type: 'retry' }).catch(() => {});
    createRequestClient((m) => ids.push(m.id)).request({ type: 'retry' }).catch(() => {});
    assert.notEqual(ids[0], ids[1]);
  });
});
