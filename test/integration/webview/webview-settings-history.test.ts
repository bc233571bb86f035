import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { panelState, usePanelSuite, type PanelPage } from './webview-page.js';

const history = [
  { taskId: 'old', task: 'Upgrade React to 19', startedAt: 1_700_000_000_000, updatedAt: 1_700_000_100_000, status: 'completed' },
  { taskId: 'new', task: 'Fix the login redirect', startedAt: 1_700_100_000_000, updatedAt: 1_700_100_100_000, status: 'failed' },
];

/** Settings that match the first of two API profiles ("work"; "local" is another provider). */
const SETTINGS_WITH_PROFILES = {
  provider: 'openrouter' as const,
  model: 'qwen/qwen3-coder',
  baseUrl: '',
  toolProtocol: 'xml' as const,
  reasoningEffort: 'high' as const,
  hasApiKey: true,
  profiles: {
    work: { provider: 'openrouter' as const, model: 'qwen/qwen3-coder', reasoningEffort: 'high' as const },
    local: { provider: 'ollama' as const, model: 'qwen2.5-coder:7b', baseUrl: 'http://gpu-box:11434/v1', toolProtocol: 'native' as const },
  },
};

describe('settings and history views in Chromium', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('the settings form posts saveSettings with the typed values', async () => {
    const { page } = panel;
    await panel.send({
      type: 'snapshot',
      state: panelState({
        view: 'settings',
        settings: { provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: '', toolProtocol: 'xml', hasApiKey: true },
      }),
    });
    const key = page.getByLabel('API key');
    assert.match((await key.getAttribute('placeholder')) ?? '', /key is stored/);
    assert.equal(await key.getAttribute('type'), 'password');
    await page.getByLabel('Provider').selectOption('openai-compatible');
    await page.getByLabel('Default model', { exact: true }).fill('qwen2.5-coder');
    await page.getByLabel('Base URL').fill('http://localhost:11434/v1');
    await key.fill('sk-test-123');
    await page.getByRole('button', { name: 'Save' }).click();
    const saved = await panel.waitForPosted('saveSettings');
    assert.deepEqual(
      { provider: saved.provider, model: saved.model, baseUrl: saved.baseUrl, toolProtocol: saved.toolProtocol, apiKey: saved.apiKey },
      { provider: 'openai-compatible', model: 'qwen2.5-coder', baseUrl: 'http://localhost:11434/v1', toolProtocol: 'xml', apiKey: 'sk-test-123' },
    );
    await page.getByText('Saved.').waitFor();
    assert.equal(await key.inputValue(), '', 'the key leaves the form once saved');
  });

  test('Browse lists the provider’s models with their facts; typing filters; a pick fills the field; per-mode models and reasoning are saved', async () => {
    const { page } = panel;
    const settings = { provider: 'anthropic' as const, model: 'claude-sonnet-4-5', baseUrl: '', toolProtocol: 'xml' as const, hasApiKey: true };
    await panel.send({ type: 'snapshot', state: panelState({ view: 'settings', settings }) });
    await page.getByRole('button', { name: 'Browse: default' }).click();
    const asked = await panel.waitForPosted('listModels');
    assert.deepEqual([asked.provider, asked.baseUrl], ['anthropic', '']);
    await panel.send({
      type: 'snapshot',
      state: panelState({
        view: 'settings',
        settings,
        models: {
          provider: 'anthropic',
          baseUrl: '',
          source: 'catalogue',
          models: [
            { id: 'claude-sonnet-4-5', contextWindow: 200_000, inputPrice: 3, outputPrice: 15, supportsImages: true, supportsReasoning: true },
            { id: 'claude-haiku-4-5', contextWindow: 200_000, inputPrice: 1, outputPrice: 5, supportsImages: true },
            { id: 'claude-opus-4-1', contextWindow: 200_000, inputPrice: 15, outputPrice: 75 },
            { id: 'claude-opus-4-7', contextWindow: 200_000, inputPrice: 5, outputPrice: 25, inferredFrom: 'claude-opus-4-5' },
          ],
        },
      }),
    });
    const list = page.getByRole('listbox', { name: 'Choices: default' });
    await list.waitFor();
    assert.equal(await list.getByRole('option').count(), 4);
    assert.match(
      (await list.getByRole('option', { name: /claude-opus-4-7/ }).textContent()) ?? '',
      /200k · \$5 \/ \$25 per M · inferred from claude-opus-4-5/,
      'facts inferred from the family are said to be',
    );
    assert.match((await list.getByRole('option', { name: /claude-sonnet-4-5/ }).textContent()) ?? '', /200k · \$3 \/ \$15 per M · images · reasoning/);
    await page.getByLabel('Default model', { exact: true }).fill('haiku');
    assert.deepEqual(await list.locator('.model-id').allTextContents(), ['claude-haiku-4-5']);
    await list.getByRole('option', { name: /claude-haiku-4-5/ }).click();
    assert.equal(await page.getByLabel('Default model', { exact: true }).inputValue(), 'claude-haiku-4-5');

    await page.getByText('A different model or profile per mode').click();
    await page.getByLabel('Plan mode model', { exact: true }).fill('claude-opus-4-1');
    await page.getByLabel('Reasoning effort').selectOption('high');
    await page.getByRole('button', { name: 'Save' }).click();
    const saved = await panel.waitForPosted('saveSettings');
    assert.deepEqual([saved.model, saved.planModel, saved.actModel, saved.reasoningEffort], ['claude-haiku-4-5', 'claude-opus-4-1', '', 'high']);
  });

  test('a preset is picked from the provider list; its models show the facts the server told, or the cached list when it is down', async () => {
    const { page } = panel;
    // The host's settings stay Anthropic's until saved; the form shows the choice being made.
    const settings = { provider: 'anthropic' as const, model: 'claude-sonnet-4-5', baseUrl: '', toolProtocol: 'xml' as const, hasApiKey: true };
    await panel.send({ type: 'snapshot', state: panelState({ view: 'settings', settings }) });
    await page.getByLabel('Provider').selectOption('openrouter');
    assert.equal(
      await page.getByLabel('Default model', { exact: true }).inputValue(),
      'anthropic/claude-sonnet-4.5',
      "the preset's default model replaces the old default",
    );
    assert.match((await page.getByLabel('Base URL').getAttribute('placeholder')) ?? '', /https:\/\/openrouter\.ai\/api\/v1/);
    await page.getByRole('button', { name: 'Browse: default' }).click();
    const asked = await panel.waitForPosted('listModels');
    assert.equal(asked.provider, 'openrouter');
    const fetchedAt = Date.UTC(2025, 10, 20, 9, 30);
    await panel.send({
      type: 'snapshot',
      state: panelState({
        view: 'settings',
        settings,
        models: {
          provider: 'openrouter',
          baseUrl: '',
          source: 'cache',
          fetchedAt,
          error: 'Server error from OpenRouter (HTTP 503); this is usually temporary.',
          models: [
            {
              id: 'anthropic/claude-sonnet-4.5',
              contextWindow: 1_000_000,
              inputPrice: 3,
              outputPrice: 15,
              supportsImages: true,
              supportsTools: true,
              supportsReasoning: true,
            },
            { id: 'qwen/qwen3-coder', contextWindow: 262_144, inputPrice: 0.22, outputPrice: 0.95, supportsTools: true },
          ],
        },
      }),
    });
    const list = page.getByRole('listbox', { name: 'Choices: default' });
    await list.waitFor();
    assert.match((await list.getByRole('option', { name: /claude-sonnet-4\.5/ }).textContent()) ?? '', /1M · \$3 \/ \$15 per M · images · tools · reasoning/);
    assert.match((await list.getByRole('option', { name: /qwen3-coder/ }).textContent()) ?? '', /262k · \$0\.22 \/ \$0\.95 per M · tools/);
    assert.match(
      (await list.textContent()) ?? '',
      /The server did not answer \(Server error from OpenRouter \(HTTP 503\).*\); these are the models it listed on /,
    );
  });

  test('an API profile is switched to from the Settings view, and the settings are saved as a new one', async () => {
    const { page } = panel;
    const settings = SETTINGS_WITH_PROFILES;
    await panel.send({ type: 'snapshot', state: panelState({ view: 'settings', settings }) });
    const picker = page.getByLabel('Fill from a profile', { exact: true });
    await picker.waitFor();
    assert.match((await picker.locator('option').first().textContent()) ?? '', /In use: work/);
    await picker.selectOption('local');
    assert.equal(await page.getByLabel('Provider').inputValue(), 'ollama');
    assert.equal(await page.getByLabel('Default model', { exact: true }).inputValue(), 'qwen2.5-coder:7b');
    assert.equal(await page.getByLabel('Base URL').inputValue(), 'http://gpu-box:11434/v1');
    assert.equal(await page.getByLabel('Reasoning effort').inputValue(), 'off');
    await page.getByLabel('Keep as a new profile named').fill('gpu box');
    await page.getByRole('button', { name: 'Save' }).click();
    const saved = await panel.waitForPosted('saveSettings');
    assert.deepEqual(
      [saved.provider, saved.model, saved.baseUrl, saved.toolProtocol, saved.saveAsProfile],
      ['ollama', 'qwen2.5-coder:7b', 'http://gpu-box:11434/v1', 'native', 'gpu box'],
    );
  });

  test('the chat header switches the API profile in use, as Save in the Settings view would', async () => {
    const { page } = panel;
    const settings = SETTINGS_WITH_PROFILES;
    await panel.send({ type: 'snapshot', state: panelState({ view: 'chat', settings }) });
    const picker = page.getByRole('combobox', { name: 'API profile' });
    await picker.waitFor();
    assert.equal(await picker.inputValue(), 'work');
    await picker.selectOption('local');
    const saved = await panel.waitForPosted('saveSettings');
    assert.deepEqual(
      [saved.provider, saved.model, saved.baseUrl, saved.toolProtocol, saved.reasoningEffort, saved.planProfile],
      ['ollama', 'qwen2.5-coder:7b', 'http://gpu-box:11434/v1', 'native', 'off', undefined],
    );
    // Settings that match no profile say so; without profiles there is no picker.
    await panel.send({ type: 'snapshot', state: panelState({ view: 'chat', settings: { ...settings, model: 'other-model' } }) });
    await page.getByRole('combobox', { name: 'API profile' }).getByText('Settings of no profile').waitFor({ state: 'attached' });
    await panel.send({ type: 'snapshot', state: panelState({ view: 'chat', settings: { ...settings, profiles: undefined } }) });
    await page.getByRole('combobox', { name: 'API profile' }).waitFor({ state: 'detached' });
  });

  test("a profile per mode: picked in the Settings view in place of the mode's model, and saved; a profile that is gone is named", async () => {
    const { page } = panel;
    const profiles = { thinker: { provider: 'anthropic' as const, model: 'claude-opus-4-5' } };
    const settings = {
      provider: 'openrouter' as const,
      model: 'qwen/qwen3-coder',
      baseUrl: '',
      toolProtocol: 'xml' as const,
      hasApiKey: true,
      profiles,
      actProfile: 'gone',
    };
    await panel.send({ type: 'snapshot', state: panelState({ view: 'settings', settings }) });
    const planProfile = page.getByLabel('Plan mode profile');
    await planProfile.waitFor({ state: 'attached' });
    // Open because a mode has a profile; Act's model is left to its profile.
    assert.equal(await page.getByLabel('Act mode model', { exact: true }).count(), 0);
    assert.equal(await page.getByLabel('Plan mode model', { exact: true }).count(), 1);
    assert.equal(await page.getByLabel('Act mode profile').inputValue(), 'gone');
    assert.match(
      (await page.getByLabel('Act mode profile').locator('option:checked').textContent()) ?? '',
      /gone \(not found: Act mode uses the settings above\)/,
    );
    assert.match((await planProfile.locator('option', { hasText: 'thinker' }).textContent()) ?? '', /thinker \(Anthropic, claude-opus-4-5\)/);
    await planProfile.selectOption('thinker');
    assert.equal(await page.getByLabel('Plan mode model', { exact: true }).count(), 0);
    await page.getByLabel('Act mode profile').selectOption('');
    await page.getByRole('button', { name: 'Save' }).click();
    const saved = await panel.waitForPosted('saveSettings');
    assert.deepEqual([saved.provider, saved.model, saved.planProfile, saved.actProfile], ['openrouter', 'qwen/qwen3-coder', 'thinker', '']);
  });

  test('the rules files are listed with a toggle each and why one does not apply', async () => {
    const { page } = panel;
    await panel.send({
      type: 'snapshot',
      state: panelState({
        view: 'settings',
        rules: [
          { label: 'CLAUDE.md', active: true, disabled: false },
          { label: '.cursor/rules/react.mdc', active: false, note: 'applies when the task touches src/**/*.tsx', disabled: false },
          { label: '.cursorrules', active: false, note: 'turned off', disabled: true },
        ],
      }),
    });
    const section = page.getByRole('region', { name: 'Rules files' });
    await section.waitFor();
    assert.equal(await section.getByRole('checkbox', { name: 'CLAUDE.md' }).isChecked(), true);
    assert.equal(await section.getByRole('checkbox', { name: '.cursorrules' }).isChecked(), false);
    assert.match((await section.textContent()) ?? '', /applies when the task touches src\/\*\*\/\*\.tsx/);
    await page.evaluate('window.__host.replies = "manual"');
    await section.getByRole('checkbox', { name: 'CLAUDE.md' }).uncheck();
    const posted = await panel.waitForPosted('setRuleEnabled');
    assert.deepEqual([posted.label, posted.enabled], ['CLAUDE.md', false]);
  });

  test('an empty API key keeps the stored one (no apiKey field is sent)', async () => {
    const { page } = panel;
    await panel.send({
      type: 'snapshot',
      state: panelState({ view: 'settings', settings: { provider: 'gemini', model: 'gemini-2.5-pro', baseUrl: '', toolProtocol: 'xml', hasApiKey: false } }),
    });
    assert.match((await page.getByLabel('API key').getAttribute('placeholder')) ?? '', /No key stored/);
    assert.equal(await page.getByLabel('Provider').inputValue(), 'gemini');
    await page.getByRole('button', { name: 'Save' }).click();
    const saved = await panel.waitForPosted('saveSettings');
    assert.equal('apiKey' in saved, false);
    assert.equal(saved.model, 'gemini-2.5-pro');
  });

  test('the tool protocol select shows the saved protocol and posts the chosen one', async () => {
    const { page } = panel;
    const settings = { provider: 'openai', model: 'gpt-4.1', baseUrl: '', toolProtocol: 'native', hasApiKey: true } as const;
    await panel.send({ type: 'snapshot', state: panelState({ view: 'settings', settings }) });
    const protocol = page.getByRole('combobox', { name: 'Tool protocol' });
    assert.equal(await protocol.inputValue(), 'native');
    assert.deepEqual(await protocol.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)), ['xml', 'native']);
    await protocol.selectOption('xml');
    await page.getByRole('button', { name: 'Save' }).click();
    assert.equal((await panel.waitForPosted('saveSettings')).toolProtocol, 'xml');

    // A snapshot with the saved value resets the form to it.
    await panel.send({ type: 'snapshot', state: panelState({ view: 'settings', settings: { ...settings, toolProtocol: 'xml' } }) });
    await protocol.selectOption('native');
    await page.getByRole('button', { name: 'Save' }).click();
    assert.equal((await panel.waitForPosted('saveSettings')).toolProtocol, 'native');
  });

  test('a failed save shows the host error', async () => {
    const { page } = panel;
    await page.evaluate('window.__host.replies = "manual"');
    await panel.send({ type: 'snapshot', state: panelState({ view: 'settings' }) });
    await page.getByRole('button', { name: 'Save' }).click();
    const saved = await panel.waitForPosted('saveSettings');
    await page.evaluate(
      (id) => (window as unknown as { __host: { reply(id: string, error: string): void } }).__host.reply(id, 'Base URL is not a valid URL'),
      saved.id,
    );
    await page.getByText('Base URL is not a valid URL').waitFor();
  });

  test('history rows post openTask, exportTask and deleteTask, named after their task', async () => {
    const { page } = panel;
    await panel.send({ type: 'snapshot', state: panelState({ history, view: 'history' }) });
    await page.getByRole('heading', { name: 'History' }).waitFor();
    // Newest first.
    assert.deepEqual(await page.locator('.history-text').allTextContents(), ['Fix the login redirect', 'Upgrade React to 19']);
    assert.ok(await page.locator('.history-item').first().getByText('failed').isVisible());

    await page.getByRole('button', { name: 'Export: Upgrade React to 19' }).click();
    assert.equal((await panel.waitForPosted('exportTask')).taskId, 'old');
    await page.getByRole('button', { name: 'Delete: Fix the login redirect' }).click();
    assert.equal((await panel.posted()).filter((m) => m.type === 'deleteTask').length, 0, 'delete asks first');
    await page.getByRole('button', { name: 'Confirm delete: Fix the login redirect' }).click();
    assert.equal((await panel.waitForPosted('deleteTask')).taskId, 'new');

    await page.getByRole('searchbox', { name: 'Filter history' }).fill('react');
    assert.deepEqual(await page.locator('.history-text').allTextContents(), ['Upgrade React to 19']);
    await page.getByRole('button', { name: 'Open: Upgrade React to 19' }).click();
    assert.equal((await panel.waitForPosted('openTask')).taskId, 'old');
    await page.getByRole('textbox', { name: 'Task' }).waitFor();
  });
  test('"New task…" in the History view starts a task in the workspace, or in a new worktree with a name and a base from the local branches', async () => {
    const { page } = panel;
    await panel.send({ type: 'snapshot', state: panelState({ history, view: 'history' }) });
    await page.getByRole('button', { name: 'New task…' }).click();
    const form = page.getByRole('form', { name: 'New task' });
    const start = form.getByRole('button', { name: 'Start task' });
    assert.equal(await start.isDisabled(), true, 'nothing to start yet');
    await form.getByRole('textbox', { name: 'New task text' }).fill('Tidy the README');
    assert.equal(await form.getByRole('radio', { name: 'In this workspace' }).isChecked(), true, 'the workspace by default');
    await start.click();
    const plain = await panel.waitForPosted('newTask');
    assert.deepEqual({ ...plain, id: undefined }, { type: 'newTask', id: undefined, text: 'Tidy the README' });
    // Started: the chat shows it.
    await page.getByRole('textbox', { name: 'Task' }).waitFor();

    // The host asks for the History view again (a request the page follows once).
    await panel.send({ type: 'snapshot', state: panelState({ history, view: 'history', viewRequest: 'again' }) });
    await page.getByRole('button', { name: 'New task…' }).click();
    await form.getByRole('textbox', { name: 'New task text' }).fill('Fix the login redirect again');
    await form.getByRole('radio', { name: 'In a new worktree' }).check();
    await panel.waitForPosted('listBaseBranches');
    assert.equal(await start.isDisabled(), true, 'no base until the branches are listed');
    await panel.send({
      type: 'snapshot',
      state: panelState({ history, view: 'history', baseBranches: { branches: ['develop', 'main', 'release/2.0'], current: 'main' } }),
    });
    const baseSelect = form.getByRole('combobox', { name: 'Base branch' });
    assert.equal(await baseSelect.inputValue(), 'main', 'the checked-out branch by default');
    assert.deepEqual(await baseSelect.locator('option').allTextContents(), ['develop', 'main (checked out)', 'release/2.0']);
    await start.click();
    const defaults = await panel.waitForPosted('newTask');
    assert.deepEqual(
      { ...defaults, id: undefined },
      { type: 'newTask', id: undefined, text: 'Fix the login redirect again', worktree: true, worktreeBase: 'main' },
    );

    await panel.send({
      type: 'snapshot',
      state: panelState({
        history,
        view: 'history',
        viewRequest: 'once more',
        baseBranches: { branches: ['develop', 'main', 'release/2.0'], current: 'main' },
      }),
    });
    await page.getByRole('button', { name: 'New task…' }).click();
    await form.getByRole('textbox', { name: 'New task text' }).fill('Backport the fix');
    await form.getByRole('radio', { name: 'In a new worktree' }).check();
    await form.getByRole('textbox', { name: 'Worktree name (optional)' }).fill('  backport  ');
    await baseSelect.selectOption('release/2.0');
    await start.click();
    const chosen = await panel.waitForPosted('newTask');
    assert.deepEqual(
      { ...chosen, id: undefined },
      { type: 'newTask', id: undefined, text: 'Backport the fix', worktree: true, worktreeName: 'backport', worktreeBase: 'release/2.0' },
    );
    assert.deepEqual(await panel.problems(), []);
  });

  test('"New task…" in a workspace outside git says why no worktree can be made, and Cancel closes the form', async () => {
    const { page } = panel;
    await panel.send({ type: 'snapshot', state: panelState({ history, view: 'history' }) });
    await page.getByRole('button', { name: 'New task…' }).click();
    const form = page.getByRole('form', { name: 'New task' });
    await form.getByRole('textbox', { name: 'New task text' }).fill('Anything');
    await form.getByRole('radio', { name: 'In a new worktree' }).check();
    await panel.send({
      type: 'snapshot',
      state: panelState({ history, view: 'history', baseBranches: { branches: [], problem: 'The workspace /w is not in a git repository' } }),
    });
    await form.getByRole('alert').getByText('is not in a git repository').waitFor();
    assert.equal(await form.getByRole('button', { name: 'Start task' }).isDisabled(), true);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'New task…' }).waitFor();
    assert.equal((await panel.posted()).filter((m) => m.type === 'newTask').length, 0);
  });
});
