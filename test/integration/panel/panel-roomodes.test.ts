// The panel's mode picker lists a workspace's Roo Code modes with when to use each, tells what was
// wrong with the file, and lists nothing from an untrusted workspace until the user trusts it.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import type { HeldBackModes } from '../../../src/core/modes/mode-loader.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { openPanelBackend } from '../../helpers/panel-backend.js';

const ROOMODES = JSON.stringify({
  customModes: [
    { slug: 'docs', name: 'Docs Writer', roleDefinition: 'You write docs. Always.', whenToUse: 'Use for documentation.', groups: ['read'] },
    { slug: 'plain', name: 'Plain', roleDefinition: 'You are plain. Really.', groups: ['read'] },
    { slug: 'bad slug', name: 'Bad', roleDefinition: 'x', groups: ['read'] },
  ],
});

describe('the panel mode picker and .roomodes', { timeout: 60_000 }, () => {
  const fixture = useTaskFixture();
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  test('each mode comes with when to use it (whenToUse, else the first sentence of its role); a broken entry is a notice', async () => {
    fixture.ws.write('.roomodes', ROOMODES);
    const panel = openPanelBackend(fixture, closers);
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    const modes = panel.page.state.panel!.modes;
    assert.deepEqual(
      modes.find((m) => m.slug === 'docs'),
      { slug: 'docs', name: 'Docs Writer', description: 'Use for documentation.' },
    );
    assert.equal(modes.find((m) => m.slug === 'plain')?.description, 'You are plain.');
    assert.equal(modes.find((m) => m.slug === 'code')?.description, 'Writing, changing or fixing code, running commands and tests.');
    assert.equal(
      modes.some((m) => m.slug === 'bad slug'),
      false,
    );
    assert.equal(panel.notices.filter((n) => /Mode file \.roomodes is invalid at customModes\[2\]\.slug/.test(n)).length, 1, panel.notices.join('\n'));
  });

  test('untrusted: the workspace modes are not listed and the user is asked; once trusted they are', async () => {
    fixture.ws.write('.roomodes', ROOMODES);
    let trusted = false;
    const asked: HeldBackModes[] = [];
    const panel = openPanelBackend(fixture, closers, {
      modeTrust: { check: () => (trusted ? 'trusted' : 'unknown'), heldBack: (held) => void asked.push(held) },
    });
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    assert.equal(
      panel.page.state.panel!.modes.some((m) => m.slug === 'docs'),
      false,
    );
    assert.deepEqual(asked[0]?.files, [`${fixture.ws.root}/.roomodes`]);
    trusted = true;
    await panel.client.request({ type: 'showView', view: 'chat' });
    await panel.until(() => panel.page.state.panel!.modes.some((m) => m.slug === 'docs'), 'the trusted mode is listed');
  });
});
