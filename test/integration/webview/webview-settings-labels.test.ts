// Every control of the Settings view has a name of its own: no name equals another's or is part of
// it (a list's chosen entry is not part of its name), so a screen reader, or anything that finds a control by its label, finds exactly one.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { panelState, usePanelSuite, type PanelPage } from './webview-page.js';

/** Every form of the page at once: profiles, per-mode models and profiles, a task waiting, a failing rule list. */
const FULL_SETTINGS = {
  provider: 'openai-compatible' as const,
  model: 'qwen2.5-coder',
  baseUrl: 'http://localhost:11434/v1',
  toolProtocol: 'xml' as const,
  hasApiKey: false,
  planModel: 'big-model',
  actModel: 'small-model',
  profiles: { work: { provider: 'openrouter' as const, model: 'qwen/qwen3-coder' }, local: { provider: 'ollama' as const, model: 'qwen2.5-coder:7b' } },
  missing: [],
};

describe('Settings labels in Chromium', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('each labelled control has a unique accessible name, and each is found by role and name exactly once', async () => {
    const { page } = panel;
    await panel.send({ type: 'snapshot', state: panelState({ view: 'settings', settings: FULL_SETTINGS, pendingTask: 'Say hello' }) });
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    // The per-mode section open and both model lists open too, so their buttons and lists count.
    await page.locator('details.per-mode-models[open]').waitFor();
    for (const name of ['Browse: default', 'Browse: Plan mode', 'Browse: Act mode']) await page.getByRole('button', { name, exact: true }).waitFor();

    const controls = await page.evaluate(() => {
      const selector = 'input, select, textarea, button, [role="listbox"], [role="checkbox"], summary';
      return [...document.querySelectorAll<HTMLElement>(selector)].map((el) => ({ tag: el.tagName.toLowerCase(), type: el.getAttribute('type') ?? '' }));
    });
    assert.ok(controls.length >= 12, `only ${controls.length} controls found`);

    // The accessible names as Chromium computes them (the accessibility snapshot of the page).
    const snapshot = await page.locator('body').ariaSnapshot();
    const named = [...snapshot.matchAll(/^\s*- (textbox|combobox|button|listbox|checkbox|spinbutton|searchbox) "([^"]+)"/gm)].map((m) => ({
      role: m[1]!,
      name: m[2]!,
    }));
    assert.ok(named.length >= 12, `only ${named.length} named controls in:\n${snapshot}`);
    const names = named.map((n) => n.name.toLowerCase());
    for (const [i, name] of names.entries()) {
      const clashes = names.filter((other, j) => j !== i && other.includes(name));
      assert.deepEqual(clashes, [], `"${named[i]!.name}" (${named[i]!.role}) is part of another control's name`);
    }
    for (const { role, name } of named) {
      assert.equal(await page.getByRole(role as 'textbox', { name }).count(), 1, `${role} "${name}" is found more than once by its name`);
      assert.equal((await page.getByLabel(name).count()) <= 1, true, `the label "${name}" matches several controls`);
    }
    for (const label of [
      'Default model',
      'Plan mode model',
      'Act mode model',
      'Base URL',
      'API key',
      'Provider',
      'Plan mode profile',
      'Act mode profile',
      'Fill from a profile',
      'Reasoning effort',
      'Tool protocol',
      'Keep as a new profile named',
    ]) {
      assert.equal(await page.getByLabel(label).count(), 1, `the label "${label}" does not find exactly one control`);
      assert.equal(await page.getByLabel(label, { exact: true }).count(), 1, `no control is named exactly "${label}"`);
    }

    // The explanation of a waiting task is announced (an alert), and so is Save's outcome (a status).
    assert.match((await page.getByRole('alert').textContent()) ?? '', /Your task starts as soon as this is saved/);
  });
});
