// A newcomer's first task in the real workbench with the PACKAGED extension: a fresh profile
// (new user-data-dir), no API key in the environment, no docs. The empty panel says a provider is
// needed; the task typed before the setup waits in the panel's setup, which is filled with the
// scripted LLM server as an OpenAI-compatible base URL, a key and a model: Save confirms, the task
// starts without being retyped and its answer arrives; a task typed afterwards runs too.
// No error about a provider the user never chose, nor about environment variables, ever shows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { useUnconfiguredWorkbench } from '../helpers/unconfigured-workbench';

const UI_TIMEOUT = 60_000;
const TASK = 'Tell me what this project greets people with';
const ANSWER = 'It greets people with "hello".';
const SECOND_TASK = 'Name the file that holds the greeting';
const SECOND_ANSWER = 'The greeting is in hello.ts.';
/** Save answers before any model request: far less than a task's time even on a busy machine. */
const SAVE_TIMEOUT = 15_000;

describe('First run: from the empty panel to a first answer (packaged .vsix)', { timeout: 600_000 }, () => {
  const fresh = useUnconfiguredWorkbench('first-run');
  let panel: FrameLocator;

  /** Errors the panel shows: banners and error cards. */
  const shownErrors = async () => [...(await panel.locator('.problem-banner').allTextContents()), ...(await panel.locator('.error-card').allTextContents())];

  it('gets a first answer without retyping the task', async () => {
    await fresh.workbench.openViewContainer('Smith');
    panel = fresh.workbench.webviewFrame();

    // The empty panel says what is needed, in the panel itself.
    const callout = panel.getByRole('region', { name: 'Set up a model provider' });
    await callout.waitFor({ timeout: UI_TIMEOUT });
    await fresh.workbench.screenshot('first-run-1-empty-panel');

    // The newcomer types the task first and sends it: the setup opens with the task kept.
    await panel.getByRole('textbox', { name: 'Task' }).fill(TASK);
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.getByRole('heading', { name: 'Settings' }).waitFor({ timeout: UI_TIMEOUT });
    // Told to screen readers too: the explanation is an alert while a task waits.
    const note = panel.getByRole('alert').filter({ hasText: 'Smith needs' });
    await note.getByText(TASK).waitFor({ timeout: UI_TIMEOUT });
    assert.deepEqual(await shownErrors(), []);
    assert.ok(
      !/ANTHROPIC_API_KEY|environment variable/i.test((await panel.locator('body').textContent()) ?? ''),
      'the panel talks about environment variables',
    );
    await fresh.workbench.screenshot('first-run-2-setup');

    // The setup: a local OpenAI-compatible server (the scripted one), no key needed.
    fresh.llm.enqueue({ text: `<attempt_completion>\n<result>${ANSWER}</result>\n</attempt_completion>` });
    await panel.getByLabel('Provider').selectOption('openai-compatible');
    await panel.getByRole('textbox', { name: 'Base URL', exact: true }).fill(fresh.llm.openAiBaseUrl);
    await panel.getByRole('textbox', { name: 'API key', exact: true }).fill('sk-first-run');
    await panel.getByRole('textbox', { name: 'Default model', exact: true }).fill('scripted-model');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    // Save confirms at once, before the waiting task's answer (the task runs after it, not inside it).
    await panel.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: SAVE_TIMEOUT });

    // The kept task starts by itself and the answer arrives in the chat.
    const completion = panel.locator('.completion-card');
    await completion.getByText(ANSWER).waitFor({ timeout: UI_TIMEOUT });
    await panel.locator('.msg-task').getByText(TASK).waitFor({ timeout: UI_TIMEOUT });
    assert.equal(fresh.llm.requests.length, 1);
    assert.match(JSON.stringify(fresh.llm.requests[0]!.body), new RegExp(TASK));
    assert.equal(fresh.llm.requests[0]!.headers.authorization, 'Bearer sk-first-run');
    assert.deepEqual(await shownErrors(), []);
    // The Task box is empty again: the task was sent, not left to retype or sent twice.
    assert.equal(await panel.getByRole('textbox', { name: 'Task' }).inputValue(), '');
    await fresh.workbench.screenshot('first-run-3-answer');

    // A task typed afterwards runs too, with the key that was saved.
    fresh.llm.enqueue({ text: `<attempt_completion>\n<result>${SECOND_ANSWER}</result>\n</attempt_completion>` });
    await panel.getByRole('textbox', { name: 'Task' }).fill(SECOND_TASK);
    await panel.getByRole('button', { name: 'Send' }).click();
    await completion.getByText(SECOND_ANSWER).waitFor({ timeout: UI_TIMEOUT });
    assert.equal(fresh.llm.requests.length, 2);
    assert.match(JSON.stringify(fresh.llm.requests[1]!.body), new RegExp(SECOND_TASK));
    assert.deepEqual(await shownErrors(), []);
    await fresh.workbench.screenshot('first-run-4-second-answer');
  });
});
