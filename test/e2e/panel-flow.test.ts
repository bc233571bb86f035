// The whole panel flow on the PACKAGED extension (.vsix) in the real VS Code workbench, against the
// scripted LLM server over OpenAI's wire format: settings entered in the panel (the key goes to
// SecretStorage, never settings.json), a streamed answer with an edit shown in the diff editor and
// approved, a command approved with its live output, and an edit rejected with feedback the model
// then reads before it completes. Needs ensure-workbench, a build and package-vsix first (the
// test:e2e script does all three). Screenshots: .test-artifacts/e2e/panel-flow-*.png.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator, Locator } from 'playwright-core';
import { startScriptedLlmServer, type RecordedRequest, type ScriptedLlmServer } from '../fixtures/scripted-llm-server';
import { createTempWorkspace, type TempWorkspace } from '../helpers/temp-workspace';
import { openWorkbench, type Workbench } from '../helpers/workbench';

// Generous on purpose: two cores run code-server, Chromium and another test file at once.
const UI_TIMEOUT = 60_000;
const MODEL = 'scripted-model';
const API_KEY = 'sk-e2e-panel-flow-0123456789';
const FILE = 'src/greeting.ts';
const ORIGINAL = 'export function greet(name: string): string {\n  return "Hello, " + name;\n}\n';
const APPROVED = 'export function greet(name: string): string {\n  return `Hello, ${name}! Welcome to Smith.`;\n}\n';
const FEEDBACK = 'use a constant instead';
const COMMAND_FIRST_LINE = 'smith-e2e-output';
const COMMAND_LAST_LINE = 'smith-e2e-finished';
// The command waits (bounded) for a flag file, so its output is caught while it is still live.
const RELEASE_FLAG = 'release.flag';
const COMMAND = `echo ${COMMAND_FIRST_LINE}; echo second-line; for i in $(seq 300); do [ -f ${RELEASE_FLAG} ] && break; sleep 0.2; done; echo ${COMMAND_LAST_LINE}`;
const COMPLETION_RESULT = 'The greeting now welcomes the user; the second edit was left out as you asked.';

const replaceCall = (search: string, replace: string) =>
  `<replace_in_file>\n<path>${FILE}</path>\n<diff>\n------- SEARCH\n${search}\n=======\n${replace}\n+++++++ REPLACE\n</diff>\n</replace_in_file>`;

/** Polls `condition` until it holds: the `expect.poll` of this runner (no fixed sleeps). */
async function until<T>(what: string, condition: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = UI_TIMEOUT): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the locator's text (spaces normalised, as Monaco renders them as U+00A0) contains `text`. */
async function untilText(what: string, locator: Locator, text: string): Promise<void> {
  await until(`${what} to contain ${JSON.stringify(text)}`, async () => {
    const found = await locator.first().textContent({ timeout: 1000 });
    return found?.replace(/\u00a0/g, ' ').includes(text);
  });
}

/** The serialised body of a recorded request (messages and all). */
const bodyText = (request: RecordedRequest) => JSON.stringify(request.body);
/** The last message of a recorded request: where the previous tool's result goes. */
const lastMessage = (request: RecordedRequest) => JSON.stringify((request.body.messages as unknown[]).at(-1));

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

describe('Smith panel flow in the real VS Code workbench (packaged .vsix)', { timeout: 600_000 }, () => {
  let workspace: TempWorkspace;
  let storage: TempWorkspace;
  let llm: ScriptedLlmServer;
  let workbench: Workbench;
  let panel: FrameLocator;
  /** What the model saw when it answered each step, for assertions after the fact. */
  const seen: Record<string, RecordedRequest> = {};
  const timings: [string, number][] = [];
  let stepStarted = 0;
  const step = (name: string) => {
    const now = performance.now();
    if (stepStarted > 0) timings.push([name, Math.round(now - stepStarted)]);
    stepStarted = now;
  };

  before(async () => {
    workspace = createTempWorkspace('smith-e2e-flow-');
    workspace.write(FILE, ORIGINAL);
    storage = createTempWorkspace('smith-e2e-storage-');
    llm = await startScriptedLlmServer();
    stepStarted = performance.now();
    workbench = await openWorkbench({
      workspace: workspace.root,
      // Keys from the environment would hide whether the panel's key is used.
      env: { SMITH_API_KEY: '', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', GEMINI_API_KEY: '', SMITH_STORAGE: storage.root },
      settings: { 'smith.autoApprove.editFiles': false, 'smith.autoApprove.safeCommands': false, 'smith.autoApprove.allCommands': false },
    });
    step('workbench opened');
  });

  // One session: once a step fails, the later ones would only time out on its leftovers.
  let broken = false;
  const stepIt = (name: string, body: () => Promise<void>) =>
    it(name, async (t) => {
      if (broken) return t.skip('an earlier step failed');
      try {
        await body();
      } catch (error) {
        broken = true;
        await workbench?.screenshot(`panel-flow-failed-step-${name.slice(0, 1)}`).catch(() => undefined);
        throw error;
      }
    });

  after(async () => {
    await workbench?.close();
    await llm?.close();
    workspace?.dispose();
    storage?.dispose();
    if (timings.length > 0) console.log(`panel-flow timings (ms): ${timings.map(([name, ms]) => `${name} ${ms}`).join(', ')}`);
  });

  stepIt('1. opens the Smith view from the activity bar', async () => {
    await workbench.openViewContainer('Smith');
    panel = workbench.webviewFrame();
    await panel.getByRole('heading', { name: 'What should Smith do?' }).waitFor({ timeout: UI_TIMEOUT });
    await panel.getByRole('textbox', { name: 'Task' }).waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('panel-flow-1-panel');
    step('1 panel');
  });

  stepIt('2. saves provider settings from the panel; the key goes to secret storage, not settings.json', async () => {
    // Navigation is in the view's title bar (package.json menus.view/title), not in the panel.
    await workbench.page.locator('.part.sidebar').getByRole('button', { name: 'Open Settings', exact: true }).click();
    await panel.getByRole('heading', { name: 'Settings' }).waitFor({ timeout: UI_TIMEOUT });
    await panel.getByLabel('Provider').selectOption('openai-compatible');
    await panel.getByLabel('Default model', { exact: true }).fill(MODEL);
    await panel.getByLabel('Base URL').fill(llm.openAiBaseUrl);
    await panel.getByLabel('API key').fill(API_KEY);
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: UI_TIMEOUT });
    // The form now tells that a key is stored, without showing it.
    await until('the API key field to say a key is stored', async () => {
      const field = panel.getByLabel('API key');
      return (await field.inputValue()) === '' && (await field.getAttribute('placeholder'))?.includes('A key is stored');
    });

    const settingsFile = join(workbench.server.userDataDir, 'User', 'settings.json');
    const settings = await until('settings.json to hold the provider choice', () => {
      const text = readFileSync(settingsFile, 'utf8');
      return text.includes(llm.openAiBaseUrl) && text.includes('"openai-compatible"') ? text : undefined;
    });
    const parsed = JSON.parse(settings) as Record<string, unknown>;
    assert.equal(parsed['smith.provider'], 'openai-compatible');
    assert.equal(parsed['smith.model'], MODEL);
    assert.equal(parsed['smith.baseUrl'], llm.openAiBaseUrl);
    assert.ok(!settings.includes(API_KEY), 'the API key was written to settings.json');
    assert.ok(!Object.keys(parsed).some((key) => /key/i.test(key) && key.startsWith('smith.')), 'a smith.*key* setting exists');
    await workbench.screenshot('panel-flow-2-settings');

    await panel.getByRole('button', { name: 'Back to chat' }).click();
    await panel.getByRole('textbox', { name: 'Task' }).waitFor({ timeout: UI_TIMEOUT });
    step('2 settings');
  });

  stepIt('3. streams the answer, shows the edit in the diff editor, and writes it when approved', async () => {
    const { page } = workbench;
    llm.enqueue((request) => {
      seen.edit = request;
      return {
        text:
          '## Plan\n\nI will make the greeting **friendlier** with a template literal:\n\n- keep the signature\n- change the returned text\n\n' +
          replaceCall('  return "Hello, " + name;', '  return `Hello, ${name}! Welcome to Smith.`;'),
        chunkSize: 16,
        chunkDelayMs: 10,
      };
    });
    const task = panel.getByRole('textbox', { name: 'Task' });
    await task.fill('Make the greeting in src/greeting.ts friendlier');
    await panel.getByRole('button', { name: 'Send' }).click();

    // The streamed Markdown, rendered.
    const answer = panel.locator('.msg-assistant').filter({ hasText: 'I will make the greeting' });
    await answer.locator('h2', { hasText: 'Plan' }).waitFor({ timeout: UI_TIMEOUT });
    await answer.locator('strong', { hasText: 'friendlier' }).waitFor({ timeout: UI_TIMEOUT });
    await answer.locator('li', { hasText: 'keep the signature' }).waitFor({ timeout: UI_TIMEOUT });
    // The tool block is not shown as prose.
    assert.ok(!((await answer.first().textContent()) ?? '').includes('<replace_in_file>'), 'the raw tool XML is shown in the answer');

    // The approval waits in the panel, and the diff editor shows the proposal.
    const approval = panel.getByRole('region', { name: 'Approval needed' });
    await approval.waitFor({ timeout: UI_TIMEOUT });
    await untilText('the approval bar', approval.locator('.approval-path'), FILE);
    const diffEditor = page.locator('.editor-group-container .monaco-diff-editor').first();
    await diffEditor.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await untilText('the proposal side of the diff editor', diffEditor.locator('.editor.modified .view-lines'), 'Welcome to Smith.');
    await untilText('the original side of the diff editor', diffEditor.locator('.editor.original .view-lines'), '"Hello, " + name');
    const tab = page.locator('.tabs-container .tab.active');
    await untilText('the diff editor tab', tab, "greeting.ts: Original ↔ Smith's Changes");
    assert.equal(workspace.read(FILE), ORIGINAL, 'the file changed before approval');
    await workbench.screenshot('panel-flow-3-diff');

    // The model's next answer (step 4) must be queued before the approval sends the edit's result.
    llm.enqueue((request) => {
      seen.command = request;
      return {
        text: `Let me check the shell.\n\n<execute_command>\n<command>${COMMAND}</command>\n<requires_approval>true</requires_approval>\n</execute_command>`,
      };
    });
    await approval.getByRole('button', { name: 'Approve', exact: true }).click();
    await until('the approved edit on disk', () => workspace.read(FILE) === APPROVED);
    await page.locator('.editor-group-container .monaco-diff-editor').first().waitFor({ state: 'hidden', timeout: UI_TIMEOUT });

    // The key the panel stored reached the server; the model was asked with the task.
    assert.equal(seen.edit?.headers.authorization, `Bearer ${API_KEY}`);
    assert.equal(seen.edit?.body.model, MODEL);
    assert.match(bodyText(seen.edit!), /Make the greeting in src\/greeting.ts friendlier/);
    step('3 edit approved');
  });

  stepIt('4. runs an approved command and shows its live output', async () => {
    const approval = panel.getByRole('region', { name: 'Approval needed' });
    await approval.waitFor({ timeout: UI_TIMEOUT });
    await untilText('the command in the approval bar', approval.locator('.approval-command'), COMMAND_FIRST_LINE);
    assert.match(lastMessage(seen.command!), /greeting\.ts was saved successfully/, 'the edit result did not reach the model');
    await approval.getByRole('button', { name: 'Approve', exact: true }).click();

    const live = panel.getByLabel('Live command output');
    await untilText('the live command output', live, COMMAND_FIRST_LINE);
    await untilText('the live command output', live, 'second-line');
    const card = panel.locator('.tool-card:has(.tool-name[title="execute_command"])');
    await card.waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('panel-flow-4-command');

    // Let the command finish; its whole output reaches the model with the next request.
    llm.enqueue((request) => {
      seen.afterCommand = request;
      return { text: `Now I will tidy the greeting.\n\n${replaceCall('  return `Hello, ${name}! Welcome to Smith.`;', '  return "Hi " + name;')}` };
    });
    workspace.write(RELEASE_FLAG, '');
    await untilText('the finished command output', panel.getByLabel('Command output', { exact: true }), COMMAND_LAST_LINE);
    step('4 command');
  });

  stepIt('5. rejects an edit with feedback; the model reads it and completes', async () => {
    const { page } = workbench;
    const approval = panel.getByRole('region', { name: 'Approval needed' });
    await approval.waitFor({ timeout: UI_TIMEOUT });
    const result = lastMessage(seen.afterCommand!);
    assert.match(result, new RegExp(COMMAND_FIRST_LINE), 'the command output did not reach the model');
    assert.match(result, new RegExp(COMMAND_LAST_LINE), 'the end of the command output did not reach the model');
    const diffEditor = page.locator('.editor-group-container .monaco-diff-editor').first();
    await diffEditor.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await untilText('the second proposal in the diff editor', diffEditor.locator('.editor.modified .view-lines'), '"Hi " + name');

    llm.enqueue((request) => {
      seen.afterReject = request;
      return { text: `<attempt_completion>\n<result>${COMPLETION_RESULT}</result>\n</attempt_completion>` };
    });
    await approval.getByRole('textbox', { name: 'Feedback' }).fill(FEEDBACK);
    await approval.getByRole('button', { name: 'Reject' }).click();

    const completion = panel.locator('.completion-card');
    await completion.waitFor({ timeout: UI_TIMEOUT });
    await untilText('the completion card', completion, COMPLETION_RESULT);
    await untilText('the rejected tool card', panel.locator('.tool-card.status-rejected .tool-feedback'), FEEDBACK);
    await diffEditor.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
    assert.equal(workspace.read(FILE), APPROVED, 'the rejected edit reached the disk');
    assert.ok(seen.afterReject, 'the model was not asked again after the rejection');
    assert.ok(lastMessage(seen.afterReject).includes(FEEDBACK), `the feedback did not reach the model: ${lastMessage(seen.afterReject)}`);
    assert.ok(!lastMessage(seen.afterReject).includes('saved successfully'), 'the rejected edit was reported as saved');
    await workbench.screenshot('panel-flow-5-rejected');

    // Every request carried the panel's key, and the key is nowhere in the task log.
    assert.equal(llm.requests.length, 4);
    for (const request of llm.requests) assert.equal(request.headers.authorization, `Bearer ${API_KEY}`);
    const logs = filesUnder(storage.root);
    assert.ok(
      logs.some((file) => file.endsWith('events.jsonl')),
      `no task log under ${storage.root}`,
    );
    for (const file of logs) assert.ok(!readFileSync(file, 'utf8').includes(API_KEY), `the API key is in ${file}`);
    step('5 rejected and completed');
  });

  stepIt('6. compares a checkpoint with now in the multi-file diff editor, then restores its files', async () => {
    const { page } = workbench;
    const start = panel.locator('.checkpoint[data-checkpoint="0"]');
    await untilText('the first checkpoint marker', start, 'Checkpoint 0');
    await start.getByRole('button', { name: 'Compare' }).click();
    await untilText('the comparison tab', page.locator('.tabs-container .tab.active'), 'Checkpoint 0 ↔ now');
    await untilText('the changed file in the comparison', page.locator('.editor-group-container'), 'greeting.ts');
    await workbench.screenshot('panel-flow-6-compare');

    await start.getByRole('button', { name: 'Restore' }).click();
    await start.getByRole('group', { name: 'Restore checkpoint 0' }).getByRole('button', { name: 'Files only' }).click();
    await until('greeting.ts as the task found it', () => workspace.read(FILE) === ORIGINAL);
    await untilText('the restore in the chat', panel.locator('.notice').last(), 'Files went back to checkpoint 0.');
    await workbench.screenshot('panel-flow-6-restored');
    step('6 compare and restore');
  });

  stepIt('7. edits the task’s message and runs it again from there', async () => {
    const edited = 'Make the greeting in src/greeting.ts formal';
    llm.enqueue((request) => {
      seen.edited = request;
      return { text: '<attempt_completion>\n<result>Made it formal.</result>\n</attempt_completion>' };
    });
    const message = panel.locator('.msg-task');
    await message.hover();
    await message.getByRole('button', { name: 'Edit and run again from here' }).click();
    await message.getByRole('textbox', { name: 'Edited message' }).fill(edited);
    await workbench.screenshot('panel-flow-7-editing');
    await message.getByRole('button', { name: 'Run again' }).click();
    await untilText('the completion of the edited task', panel.locator('.completion-card').last(), 'Made it formal.');
    assert.match(bodyText(seen.edited!), /formal/);
    assert.doesNotMatch(bodyText(seen.edited!), /friendlier/, 'the replaced message still reached the model');
    await untilText('the edited task message', panel.locator('.msg-task'), edited);
    await workbench.screenshot('panel-flow-7-rerun');
    step('7 edited and re-run');
  });

  stepIt('8. a message typed while Smith works is queued, the todo list is pinned and the context bar shows the window', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    llm.enqueue(
      () => ({
        text: '<update_todo_list>\n<todos>\n- [x] Make the greeting formal\n- [-] Check the wording\n- [ ] Run the tests\n</todos>\n</update_todo_list>',
        hold: { afterEvents: 1, until: held },
      }),
      (request) => {
        seen.queued = request;
        return { text: '<attempt_completion>\n<result>Checked the wording.</result>\n</attempt_completion>' };
      },
    );
    const box = panel.getByRole('textbox', { name: 'Task' });
    await box.fill('Check the wording too');
    await panel.getByRole('button', { name: 'Send', exact: true }).click();
    await until('the task working', async () => (await panel.getByRole('button', { name: 'Queue' }).count()) === 1);
    await box.fill('And keep it short');
    await box.press('Enter');
    await untilText('the queued message', panel.getByRole('list', { name: 'Queued messages' }), 'And keep it short');
    await workbench.screenshot('panel-flow-8-queued');
    release();
    await untilText('the completion', panel.locator('.completion-card').last(), 'Checked the wording.');
    assert.match(bodyText(seen.queued!), /And keep it short/);
    await untilText('the todo list', panel.getByRole('region', { name: 'Todo list' }), 'Todo 1/3');
    // The scripted model's window is unknown: the bar gives the request's tokens alone.
    await untilText('the context bar', panel.getByRole('group', { name: 'Context window' }), 'tokens');
    await workbench.screenshot('panel-flow-8-todo-context');
    step('8 queue, todo list, context bar');
  });

  stepIt('9. the Settings view browses the server’s models, the auto-approve bar writes the settings, the history sorts by cost', async () => {
    await workbench.page.locator('.part.sidebar').getByRole('button', { name: 'Open Settings', exact: true }).click();
    await panel.getByRole('heading', { name: 'Settings' }).waitFor({ timeout: UI_TIMEOUT });
    await panel.getByRole('button', { name: 'Browse: default' }).click();
    const models = panel.getByRole('listbox', { name: 'Choices: default' });
    await untilText('the server’s models', models, MODEL);
    await untilText('the rules files', panel.getByRole('region', { name: 'Rules files' }), 'No rules files found');
    await workbench.screenshot('panel-flow-9-settings');
    await panel.getByRole('button', { name: 'Back to chat' }).click();

    await panel.getByRole('button', { name: /Auto-approve:/ }).click();
    await panel.getByRole('region', { name: 'Auto-approve' }).getByRole('checkbox', { name: 'Edit' }).check();
    const settingsFile = join(workbench.server.userDataDir, 'User', 'settings.json');
    await until('settings.json to auto-approve edits', () => /"smith\.autoApprove\.editFiles":\s*true/.test(readFileSync(settingsFile, 'utf8')));
    await untilText('the bar’s summary', panel.getByRole('button', { name: /Auto-approve:/ }), 'Edit');
    await workbench.screenshot('panel-flow-9-auto-approve');

    await workbench.page.locator('.part.sidebar').getByRole('button', { name: 'Task History', exact: true }).click();
    await panel.getByRole('heading', { name: 'History' }).waitFor({ timeout: UI_TIMEOUT });
    await panel.getByRole('combobox', { name: 'Sort history' }).selectOption('costliest');
    await untilText('the history', panel.locator('.history-item').first(), 'of checkpoints');
    await workbench.screenshot('panel-flow-9-history');
    step('9 settings, auto-approve, history');
  });

  stepIt('10. with the Smith view hidden, a notification says an approval waits; Open Smith brings the panel back', async () => {
    const { page } = workbench;
    await panel.getByRole('button', { name: 'Back to chat' }).click();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    llm.enqueue(
      () => ({
        text: '<execute_command>\n<command>echo notified</command>\n<requires_approval>true</requires_approval>\n</execute_command>',
        hold: { afterEvents: 1, until: held },
      }),
      () => ({ text: '<attempt_completion>\n<result>Ran it.</result>\n</attempt_completion>' }),
    );
    await panel.getByRole('textbox', { name: 'Task' }).fill('Run echo notified');
    await panel.getByRole('button', { name: 'Send', exact: true }).click();
    await until('the task working', async () => (await panel.getByRole('button', { name: 'Queue' }).count()) === 1);
    // The user looks elsewhere: the Explorer takes the side bar, so no Smith chat is visible.
    await workbench.openViewContainer('Explorer');
    release();
    // A toast pops up only while the browser window has the focus; the notification centre always holds it.
    const bell = page.locator('.statusbar-item', { has: page.locator('.codicon-bell, .codicon-bell-dot') }).first();
    // The notice names the task it is about (its first line), so it says which one when several run.
    const notice = page.locator('.notifications-center .notification-list-item', {
      hasText: 'Smith needs your approval (Make the greeting in src/greeting.ts friendlier): Run command',
    });
    await until('the notification', async () => {
      if ((await notice.count()) === 0 && !(await page.locator('.notifications-center.visible').count())) await bell.click();
      return (await notice.count()) > 0;
    });
    // The pointer leaves the bell, as a hand would: its hover tooltip otherwise covers the notification's buttons.
    await page.mouse.move(1, 1);
    await until('the tooltip gone', async () => (await page.locator('.monaco-hover:visible').count()) === 0);
    await workbench.screenshot('panel-flow-10-notification');
    await notice.getByRole('button', { name: 'Open Smith' }).click();
    panel = workbench.webviewFrame();
    const approval = panel.getByRole('region', { name: 'Approval needed' });
    await approval.waitFor({ timeout: UI_TIMEOUT });
    await approval.getByRole('button', { name: 'Approve', exact: true }).click();
    await untilText('the completion', panel.locator('.completion-card').last(), 'Ran it.');
    step('10 notification');
  });

  stepIt('11. the Task box completes an @-mention from the workspace and a /command, and takes an image', async () => {
    const box = panel.getByRole('textbox', { name: 'Task' });
    await box.click();
    await box.pressSequentially('Explain @greet');
    const mentions = panel.getByRole('listbox', { name: 'Mention completions' });
    await untilText('the file completion', mentions, '@src/greeting.ts');
    await box.press('Enter');
    await until('the completed mention', async () => (await box.inputValue()) === 'Explain @src/greeting.ts ');
    await workbench.screenshot('panel-flow-11-mention');
    await box.fill('');
    await box.pressSequentially('/mo');
    await untilText('the command completion', panel.getByRole('listbox', { name: 'Command completions' }), '/mode [slug]');
    await box.press('Tab');
    await until('the completed command', async () => (await box.inputValue()) === '/mode ');
    await box.fill('');
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f00f0005010201d1b4d54d0000000049454e44ae426082',
      'hex',
    );
    await panel.locator('input[type=file]').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: png });
    await panel.getByRole('list', { name: 'Images for the next message' }).getByRole('img', { name: 'shot.png' }).waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('panel-flow-11-image');
    step('11 completion and image');
  });
});
