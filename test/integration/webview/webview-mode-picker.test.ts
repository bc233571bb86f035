// The header's mode picker says when to use each mode: the option's description (its tooltip and
// accessible description), and the picker's own tooltip for the mode chosen. Real bundle, Chromium.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { snapshotOf, usePanelSuite } from './webview-page.js';

describe('the mode picker in Chromium', () => {
  const suite = usePanelSuite();

  test("each option carries its mode's whenToUse; the picker shows the chosen one's", async () => {
    const { page } = suite.panel;
    const modes = [
      { slug: 'code', name: 'Code', description: 'Writing, changing or fixing code.' },
      { slug: 'docs', name: 'Docs Writer', description: 'Use for documentation under docs/.' },
      { slug: 'bare', name: 'Bare' },
    ];
    await suite.panel.send(snapshotOf(undefined, { modes, modeSlug: 'code' }));
    const picker = page.getByRole('combobox', { name: 'Mode' });
    await picker.waitFor();
    await page.locator('.mode-picker option[value="docs"]').waitFor({ state: 'attached' });
    const options = await page
      .locator('.mode-picker option')
      .evaluateAll((els) => els.map((el) => ({ value: el.getAttribute('value'), title: el.getAttribute('title'), text: el.textContent })));
    assert.deepEqual(options, [
      { value: 'code', title: 'Writing, changing or fixing code.', text: 'Code' },
      { value: 'docs', title: 'Use for documentation under docs/.', text: 'Docs Writer' },
      { value: 'bare', title: null, text: 'Bare' },
    ]);
    assert.equal(await picker.getAttribute('title'), 'Writing, changing or fixing code.');
    await picker.selectOption('docs');
    assert.equal((await suite.panel.waitForPosted('setModeSlug')).modeSlug, 'docs');
    // The host confirms the switch with its next snapshot.
    await suite.panel.send(snapshotOf(undefined, { modes, modeSlug: 'docs' }));
    await page.waitForFunction(() => document.querySelector('.mode-picker')?.getAttribute('title') === 'Use for documentation under docs/.');
    assert.equal(await picker.inputValue(), 'docs');
  });
});
