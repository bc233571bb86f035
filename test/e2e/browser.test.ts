// browser_action in the real VS Code workbench with the PACKAGED extension (its own playwright-core
// beside the bundles): the model opens a small app served from the workspace on 127.0.0.1 in
// Chromium, clicks its button, and the panel's card shows the page and the console error.
// Screenshot: .test-artifacts/e2e/browser-*.png.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startWebAppServer, WEB_APP_FILES, type WebAppServer } from '../fixtures/web-app-server';
import { useScriptedWorkbench } from '../helpers/scripted-workbench';

const UI_TIMEOUT = 60_000;

describe('browser_action in the real VS Code workbench (packaged .vsix)', { timeout: 600_000 }, () => {
  let app: WebAppServer | undefined;
  const session = useScriptedWorkbench('browser', {
    prepare: async ({ workspace }) => {
      for (const [name, text] of Object.entries(WEB_APP_FILES)) workspace.write(name, text);
      app = await startWebAppServer(workspace.root);
    },
    settings: { 'smith.modelSupportsImages': true, 'smith.autoApprove.browser': true },
  });
  after(async () => {
    await app?.close();
  });

  it('opens and operates the app; the card shows the screenshot and the console lines', async () => {
    const { workbench, llm } = session;
    await workbench.openViewContainer('Smith');
    const panel = workbench.webviewFrame();
    const box = panel.getByRole('textbox', { name: 'Task' });
    await box.waitFor({ timeout: UI_TIMEOUT });
    llm.enqueue(
      { text: `<browser_action>\n<action>launch</action>\n<url>${app!.url}</url>\n</browser_action>` },
      { text: '<browser_action>\n<action>click</action>\n<element>Increment</element>\n</browser_action>' },
      { text: '<attempt_completion>\n<result>The counter works; app.js calls a missing setupFooter.</result>\n</attempt_completion>' },
    );
    await box.fill('Check the app in the browser');
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.locator('.completion-card').getByText('The counter works').waitFor({ timeout: UI_TIMEOUT });

    const cards = panel.locator('.tool-card', { has: panel.locator('.tool-name', { hasText: 'Browser' }) });
    assert.equal(await cards.count(), 2);
    const [launched, clicked] = [cards.nth(0), cards.nth(1)];
    assert.deepEqual(await launched.locator('.browser-console li.console-error').allTextContents(), [
      'uncaught TypeError: window.setupFooter is not a function (app.js:11)',
    ]);
    assert.equal(await launched.locator('.browser-shot').count(), 0, 'only the newest card keeps its screenshot');
    const shot = clicked.getByRole('button', { name: 'The page after click' });
    await shot.waitFor({ timeout: UI_TIMEOUT });
    // The screenshot is a real JPEG the webview decoded (its natural size is the page's 900x600).
    const size = await shot.locator('img').evaluate((img: HTMLImageElement) => `${img.naturalWidth}x${img.naturalHeight}`);
    assert.equal(size, '900x600');
    await workbench.screenshot('browser-1-card');
    // The model saw the page after the click as an image, and the error as text.
    const second = JSON.stringify(llm.requestAt(1).body.messages);
    assert.match(second, /data:image\/jpeg;base64,/);
    assert.match(second, /uncaught TypeError: window\.setupFooter is not a function/);
    assert.deepEqual(await panel.locator('.error-card').allTextContents(), []);
  });
});
