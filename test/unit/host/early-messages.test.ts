// What a chat page sends before Smith's core listens: held in order, handed to the core's
// messenger once it listens (its `ready` answered with a snapshot), dropped when told, never after
// the page is gone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EarlyMessages } from '../../../src/host/vscode/early-messages.js';
import { Emitter } from '../../../src/panel/event-emitter.js';
import type { PanelChange, PanelSource } from '../../../src/panel/panel-changes.js';
import type { RequestHandlers } from '../../../src/panel/message-handlers.js';
import { PanelMessenger } from '../../../src/panel/panel-messenger.js';
import type { HostMessage } from '../../../src/shared/protocol.js';
import { QUIET_PANEL_STATE } from '../../helpers/panel-state-fixture.js';

/** A webview as far as EarlyMessages sees it: the page's messages, and whether anyone still listens. */
class Page {
  private readonly messages = new Emitter<unknown>();
  listeners = 0;
  readonly onDidReceiveMessage = (listener: (message: unknown) => unknown) => {
    this.listeners++;
    const subscription = this.messages.event(listener);
    return {
      dispose: () => {
        this.listeners--;
        subscription.dispose();
      },
    };
  };
  send(message: unknown): void {
    this.messages.fire(message);
  }
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Early messages of a chat page', () => {
  it('holds what comes before the listener and hands it over in order, then each new one', async () => {
    const page = new Page();
    const early = new EarlyMessages(page);
    page.send({ n: 1 });
    page.send({ n: 2 });
    const got: unknown[] = [];
    early.listen((message) => got.push(message));
    // Before the held ones are handed over (a microtask later), a new one queues behind them.
    page.send({ n: 3 });
    assert.deepEqual(got, []);
    await settle();
    assert.deepEqual(got, [{ n: 1 }, { n: 2 }, { n: 3 }]);
    page.send({ n: 4 });
    assert.deepEqual(got, [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
  });

  it('shows every message to `seen` as it arrives, and drops those it refuses', async () => {
    const page = new Page();
    const seen: unknown[] = [];
    const early = new EarlyMessages(page, (message) => {
      seen.push(message);
      return (message as { type: string }).type !== 'loading';
    });
    page.send({ type: 'loading' });
    page.send({ type: 'ready' });
    assert.deepEqual(seen, [{ type: 'loading' }, { type: 'ready' }]);
    const got: unknown[] = [];
    early.listen((message) => got.push(message));
    await settle();
    page.send({ type: 'loading' });
    assert.deepEqual(got, [{ type: 'ready' }]);
    assert.equal(seen.length, 3);
  });

  it('hands nothing on once disposed, held or new, and stops listening to the page', async () => {
    const page = new Page();
    const early = new EarlyMessages(page);
    page.send({ n: 1 });
    const got: unknown[] = [];
    early.listen((message) => got.push(message));
    early.dispose();
    await settle();
    page.send({ n: 2 });
    assert.deepEqual(got, []);
    assert.equal(page.listeners, 0);
  });

  it('hands nothing to a listener that was disposed', async () => {
    const page = new Page();
    const early = new EarlyMessages(page);
    const got: unknown[] = [];
    early.listen((message) => got.push(message)).dispose();
    page.send({ n: 1 });
    await settle();
    assert.deepEqual(got, []);
  });

  it("gives the core's messenger the `ready` the page sent before it existed, which it answers with a snapshot", async () => {
    const page = new Page();
    const early = new EarlyMessages(page);
    page.send({ type: 'ready' });
    const changes = new Emitter<PanelChange>();
    const source: PanelSource = {
      snapshot: () => QUIET_PANEL_STATE,
      streaming: () => undefined,
      takeInserts: () => [],
      onDidChange: (listener) => changes.event(listener),
    };
    const posted: HostMessage[] = [];
    const visibility = new Emitter<unknown>();
    const messenger = new PanelMessenger(
      {
        postMessage: (message) => Promise.resolve(posted.push(message)),
        onDidReceiveMessage: early.listen,
        isVisible: () => true,
        onDidChangeVisibility: visibility.event,
      },
      source,
      {} as RequestHandlers,
    );
    try {
      await settle();
      assert.deepEqual(
        posted.map((message) => message.type),
        ['snapshot'],
      );
    } finally {
      messenger.dispose();
    }
  });
});
