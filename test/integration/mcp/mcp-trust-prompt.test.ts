// The editor host's trust question, in-process with the real config watcher, hub and npm server:
// the workspace's server waits for the answer, "yes" starts it at once and is remembered, a
// dismissed question asks again, a changed file asks again, and a burst of reloads asks once.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { mcpConfigSources } from '../../../src/core/mcp/mcp-config.js';
import { McpConfigWatcher } from '../../../src/core/mcp/mcp-config-watcher.js';
import { McpHub } from '../../../src/core/mcp/mcp-hub.js';
import { WorkspaceTrust, type UntrustedWorkspaceServers } from '../../../src/core/mcp/workspace-trust.js';
import { WorkspaceTrustPrompt } from '../../../src/core/mcp/workspace-trust-prompt.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { npmServerEntry, waitForStatus, writeConfig } from '../../fixtures/mcp/mcp-test-support.js';

/** One window's MCP set-up, as McpService wires it, with the question answered by the test. */
function openWindow(cwd: string, storageDir: string, answers: Array<boolean | undefined>) {
  const asked: UntrustedWorkspaceServers[] = [];
  const hub = new McpHub();
  const trust = new WorkspaceTrust({ storageDir });
  let watcher: McpConfigWatcher | undefined;
  const prompt = new WorkspaceTrustPrompt(
    trust,
    async (untrusted) => {
      asked.push(untrusted);
      return answers.shift();
    },
    () => watcher!.refresh(),
  );
  let applying = Promise.resolve();
  watcher = new McpConfigWatcher({
    sources: mcpConfigSources({ storageDir, cwd }),
    workspaceTrust: trust.check,
    onConfig: (config) => {
      applying = hub.applyConfig(config);
      prompt.consider(config);
    },
  });
  const first = watcher.current();
  applying = hub.applyConfig(first);
  prompt.consider(first);
  return {
    hub,
    asked,
    watcher,
    settled: async () => {
      await prompt.settled();
      await applying;
    },
    dispose: async () => {
      watcher!.dispose();
      await hub.dispose();
    },
  };
}

describe("the editor host's workspace trust question", () => {
  let ws: TempWorkspace;
  let storage: string;
  const windows: Array<{ dispose(): Promise<void> }> = [];
  beforeEach(() => {
    ws = createTempWorkspace('smith-trust-prompt-');
    storage = mkdtempSync(join(tmpdir(), 'smith-trust-prompt-storage-'));
    writeConfig(join(ws.root, '.smith', 'mcp.json'), { memory: npmServerEntry('server-memory') });
  });
  afterEach(async () => {
    for (const window of windows.splice(0)) await window.dispose();
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });
  const open = (answers: Array<boolean | undefined>) => {
    const window = openWindow(ws.root, storage, answers);
    windows.push(window);
    return window;
  };

  test('nothing starts before the answer; yes starts the server and the next window does not ask', async () => {
    const first = open([true]);
    assert.equal(first.asked.length, 1);
    assert.deepEqual(
      first.asked[0]!.servers.map((s) => s.name),
      ['memory'],
    );
    await first.settled();
    await waitForStatus(first.hub, 'memory', 'connected', 30_000);
    const second = open([]);
    await second.settled();
    assert.equal(second.asked.length, 0);
    await waitForStatus(second.hub, 'memory', 'connected', 30_000);
  });

  test('no keeps it off and is remembered; a dismissed question is asked again next time', async () => {
    const dismissed = open([undefined]);
    await dismissed.settled();
    assert.equal(dismissed.hub.server('memory'), undefined);
    const refused = open([false]);
    await refused.settled();
    assert.equal(refused.asked.length, 1);
    assert.equal(refused.hub.server('memory'), undefined);
    const later = open([true]);
    await later.settled();
    assert.equal(later.asked.length, 0);
    assert.equal(later.hub.server('memory'), undefined);
    assert.match(
      later.watcher
        .current()
        .problems.map((p) => p.message)
        .join('\n'),
      /you chose not to trust/,
    );
  });

  test('a changed server command asks again; reloads of the same file ask once', async () => {
    const window = open([true]);
    await window.settled();
    await waitForStatus(window.hub, 'memory', 'connected', 30_000);
    const answers: Array<boolean | undefined> = [];
    const next = open(answers);
    await next.settled();
    assert.equal(next.asked.length, 0);
    writeConfig(join(ws.root, '.smith', 'mcp.json'), {
      memory: npmServerEntry('server-memory'),
      other: { command: 'node', args: ['-e', 'setInterval(() => {}, 1000)'] },
    });
    next.watcher.reload();
    next.watcher.refresh();
    next.watcher.refresh();
    assert.equal(next.asked.length, 1, 'one question for one change');
    assert.deepEqual(next.asked[0]!.servers.map((s) => s.name).sort(), ['memory', 'other']);
    assert.equal(next.hub.server('memory'), undefined, 'the changed file still ran before the answer');
  });
});
