// One browser per task: it closes when the task completes, and when the task is cancelled while a
// page is still loading (in process, real Chromium, against an app on 127.0.0.1).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import type { TaskEnvironment } from '../../../src/core/session/task-environment.js';
import { Task } from '../../../src/core/task/task.js';
import { startWebAppServer, WEB_APP_FILES, type WebAppServer } from '../../fixtures/web-app-server.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const launch = (url: string) => ({ text: `<browser_action>\n<action>launch</action>\n<url>${url}</url>\n</browser_action>` });

describe('the browser of a task', () => {
  const fixture = useTaskFixture();
  let app: WebAppServer;
  beforeEach(async () => {
    for (const [name, text] of Object.entries(WEB_APP_FILES)) fixture.ws.write(name, text);
    app = await startWebAppServer(fixture.ws.root);
  });
  afterEach(() => app.close());

  async function environment(): Promise<TaskEnvironment> {
    const provider = createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    return fixture.environment(provider, new ToolHarness(fixture.ws.root).host, { maxIterations: 10 });
  }

  test('closes when the task completes', async () => {
    const env = await environment();
    fixture.server.enqueue(launch(app.url), { text: '<attempt_completion>\n<result>Looked.</result>\n</attempt_completion>' });
    const task = Task.create(env.options, 'Look at the app');
    let openDuringTask = false;
    task.onUpdate(() => {
      if (env.browser.page !== undefined) openDuringTask = true;
    });
    assert.equal((await task.run()).status, 'completed');
    assert.ok(openDuringTask, 'the page was open while the task ran');
    assert.equal(env.browser.page, undefined);
  });

  test('closes when the task is cancelled while a page loads', async () => {
    const env = await environment();
    fixture.server.enqueue(launch(`${app.url}hang`));
    const task = Task.create(env.options, 'Look at the slow page');
    const hung = app.nextHang();
    const run = task.run();
    await hung;
    task.abort();
    assert.equal((await run).status, 'aborted');
    assert.equal(env.browser.page, undefined);
  });
});
