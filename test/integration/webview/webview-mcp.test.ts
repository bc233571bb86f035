import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { McpPanelState, McpServerView } from '../../../src/shared/protocol.js';
import { panelState, usePanelSuite, type PanelPage } from './webview-page.js';

const WORKSPACE_FILE = '/work/project/.smith/mcp.json';
const GLOBAL_FILE = '/home/user/.config/smith/mcp_settings.json';

function server(name: string, overrides: Partial<McpServerView> = {}): McpServerView {
  return {
    name,
    status: 'connected',
    source: WORKSPACE_FILE,
    scope: 'workspace',
    disabled: false,
    transport: 'stdio',
    tools: [],
    resources: [],
    resourceTemplates: [],
    ...overrides,
  };
}

const fixture = server('fixture', {
  tools: [
    { name: 'add', description: 'Add two numbers.', autoApproved: true },
    { name: 'pid', description: 'The process id of the server.', autoApproved: false },
  ],
  resources: [{ uri: 'fixture://greeting', name: 'greeting' }],
  resourceTemplates: [{ uriTemplate: 'fixture://items/{id}', name: 'item' }],
});

const mcp: McpPanelState = {
  configFiles: { global: GLOBAL_FILE, workspace: WORKSPACE_FILE },
  problems: [
    { file: WORKSPACE_FILE, server: 'broken', field: 'timeout', message: 'must be at least 1 (seconds)' },
    { file: GLOBAL_FILE, message: 'is not valid JSON: CloseBraceExpected at line 3, column 1' },
  ],
  servers: [
    fixture,
    server('broken', { status: 'error', error: 'Invalid configuration: field "timeout": must be at least 1 (seconds)', transport: undefined }),
    server('crashy', { status: 'connecting', error: 'The server closed the connection unexpectedly', reconnect: { attempt: 2, maxAttempts: 5 } }),
    server('legacy', { status: 'disabled', disabled: true, source: GLOBAL_FILE, scope: 'global', transport: 'sse' }),
  ],
};

describe('MCP view in Chromium', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  const card = (name: string) => panel.page.getByRole('listitem', { name, exact: true });

  test('the host opens the view (title-bar action): problems first, then each server with status, error and source', async () => {
    const { page } = panel;
    await panel.send({ type: 'snapshot', state: panelState({ mcp }) });
    await panel.send({ type: 'snapshot', state: panelState({ mcp, view: 'mcp' }) });
    await page.getByRole('heading', { name: 'MCP servers' }).waitFor();

    const problems = page.getByRole('region', { name: 'Configuration problems' });
    assert.deepEqual(
      (await problems.getByRole('listitem').allTextContents()).map((t) => t.replace(/\s+/g, ' ')),
      [
        'server "broken", field "timeout": must be at least 1 (seconds).smith/mcp.json',
        'the file: is not valid JSON: CloseBraceExpected at line 3, column 1mcp_settings.json',
      ],
    );
    // Problems come before the servers in reading order.
    const order = await page.locator('.mcp-problems, .mcp-server-list').evaluateAll((nodes) => nodes.map((n) => n.className));
    assert.deepEqual(order, ['mcp-problems', 'mcp-server-list']);

    assert.deepEqual(await page.locator('.mcp-server-name').allTextContents(), ['fixture', 'broken', 'crashy', 'legacy']);
    assert.equal(await card('fixture').locator('.mcp-status-text').textContent(), 'connected');
    assert.equal(await card('broken').locator('.mcp-status-text').textContent(), 'error');
    assert.equal(await card('crashy').locator('.mcp-status-text').textContent(), 'reconnecting (attempt 2 of 5)');
    assert.equal(await card('legacy').locator('.mcp-status-text').textContent(), 'disabled');
    assert.match((await card('broken').locator('.mcp-status-dot').getAttribute('class')) ?? '', /status-error/);
    assert.equal(await card('broken').getByLabel('Error of broken').textContent(), 'Invalid configuration: field "timeout": must be at least 1 (seconds)');
    assert.equal(await card('fixture').locator('.mcp-error').count(), 0);
    assert.equal(await card('legacy').locator('.mcp-scope').textContent(), 'global');
    assert.equal(await card('legacy').locator('.mcp-scope').getAttribute('title'), GLOBAL_FILE);

    // Enable for the disabled server, Disable for the others; nothing to restart while disabled or invalid.
    assert.ok(await card('legacy').getByRole('button', { name: 'Enable legacy' }).isVisible());
    assert.ok(await card('fixture').getByRole('button', { name: 'Disable fixture' }).isVisible());
    assert.equal(await page.getByRole('button', { name: 'Restart legacy' }).isDisabled(), true);
    assert.equal(await page.getByRole('button', { name: 'Restart broken' }).isDisabled(), true);
    assert.equal(await page.getByRole('button', { name: 'Restart fixture' }).isEnabled(), true);
  });

  test('tools and resources are folded; each tool has an Auto-approve checkbox', async () => {
    const { page } = panel;
    await panel.send({ type: 'snapshot', state: panelState({ view: 'mcp', mcp }) });
    const tools = card('fixture').locator('details', { hasText: 'Tools (2)' });
    assert.equal(await tools.getAttribute('open'), null);
    await tools.locator('summary').click();
    assert.deepEqual(await tools.locator('.mcp-tool-name').allTextContents(), ['add', 'pid']);
    assert.ok(await tools.getByText('Add two numbers.').isVisible());
    assert.equal(await page.getByRole('checkbox', { name: 'Auto-approve add' }).isChecked(), true);
    assert.equal(await page.getByRole('checkbox', { name: 'Auto-approve pid' }).isChecked(), false);

    const resources = card('fixture').locator('details', { hasText: 'Resources (2)' });
    await resources.locator('summary').click();
    assert.ok(await resources.getByText('fixture://greeting').isVisible());
    assert.ok(await resources.getByText('fixture://items/{id}').isVisible());
    // Servers without tools show no empty sections.
    assert.equal(await card('legacy').locator('details').count(), 0);
  });

  test('the controls post the right requests', async () => {
    const { page } = panel;
    await panel.send({ type: 'snapshot', state: panelState({ view: 'mcp', mcp }) });
    await card('fixture').locator('summary', { hasText: 'Tools' }).click();

    // click, not check: the harness host confirms without changing its state, so the box flips back at once.
    await page.getByRole('checkbox', { name: 'Auto-approve pid' }).click();
    const on = await panel.waitForPosted('mcpSetAutoApprove');
    assert.deepEqual({ server: on.server, tool: on.tool, autoApprove: on.autoApprove }, { server: 'fixture', tool: 'pid', autoApprove: true });
    await page.getByRole('checkbox', { name: 'Auto-approve add' }).click();
    const off = await panel.waitForPosted('mcpSetAutoApprove');
    assert.deepEqual({ server: off.server, tool: off.tool, autoApprove: off.autoApprove }, { server: 'fixture', tool: 'add', autoApprove: false });

    await page.getByRole('button', { name: 'Disable fixture' }).click();
    const disable = await panel.waitForPosted('mcpSetDisabled');
    assert.deepEqual({ server: disable.server, disabled: disable.disabled }, { server: 'fixture', disabled: true });
    await page.getByRole('button', { name: 'Enable legacy' }).click();
    const enable = await panel.waitForPosted('mcpSetDisabled');
    assert.deepEqual({ server: enable.server, disabled: enable.disabled }, { server: 'legacy', disabled: false });

    await page.getByRole('button', { name: 'Restart crashy' }).click();
    assert.equal((await panel.waitForPosted('mcpRestart')).server, 'crashy');
    await page.getByRole('button', { name: 'Show log of broken' }).click();
    assert.equal((await panel.waitForPosted('mcpShowLog')).server, 'broken');

    await page.getByRole('button', { name: 'Open global settings' }).click();
    assert.equal((await panel.waitForPosted('mcpOpenConfig')).scope, 'global');
    await page.getByRole('button', { name: 'Open workspace settings' }).click();
    assert.equal((await panel.waitForPosted('mcpOpenConfig')).scope, 'workspace');
  });

  test('mcpState updates the view live without a snapshot', async () => {
    const { page } = panel;
    const connecting = server('fixture', { status: 'connecting' });
    await panel.send({ type: 'snapshot', state: panelState({ view: 'mcp', mcp: { ...mcp, problems: [], servers: [connecting] } }) });
    assert.equal(await card('fixture').locator('.mcp-status-text').textContent(), 'connecting');
    await panel.send({ type: 'mcpState', state: { ...mcp, problems: [], servers: [fixture] } });
    await card('fixture').locator('.mcp-status-text', { hasText: 'connected' }).waitFor();
    assert.ok(await card('fixture').locator('summary', { hasText: 'Tools (2)' }).isVisible());
    await panel.send({ type: 'mcpState', state: { ...mcp, problems: [], servers: [] } });
    await page.getByText('No MCP servers configured.').waitFor();
  });

  test('a failed toggle reverts the checkbox and shows the host error', async () => {
    const { page } = panel;
    await page.evaluate('window.__host.replies = "manual"');
    await panel.send({ type: 'snapshot', state: panelState({ view: 'mcp', mcp }) });
    await card('fixture').locator('summary', { hasText: 'Tools' }).click();
    const box = page.getByRole('checkbox', { name: 'Auto-approve pid' });
    await box.check();
    const sent = await panel.waitForPosted('mcpSetAutoApprove');
    assert.equal(await box.isChecked(), true, 'shown at once');
    await page.evaluate(
      (id) =>
        (window as unknown as { __host: { reply(id: string, error: string): void } }).__host.reply(
          id,
          '/work/project/.smith/mcp.json has unsaved changes in an editor; save or revert them first.',
        ),
      sent.id,
    );
    await page.getByRole('alert').getByText('has unsaved changes in an editor').waitFor();
    assert.equal(await box.isChecked(), false);
  });

  test('keyboard: Tab reaches the controls, Enter unfolds the tools, Space toggles a tool', async () => {
    const { page } = panel;
    await panel.send({ type: 'snapshot', state: panelState({ view: 'mcp', mcp: { ...mcp, problems: [], servers: [fixture] } }) });
    await page.getByRole('button', { name: 'Back to chat' }).focus();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim() ?? '');
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      seen.push(await focused());
    }
    assert.deepEqual(seen, ['Open global settings', 'Open workspace settings', 'Restart fixture', 'Disable fixture', 'Show log of fixture', 'Tools (2)']);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Auto-approve add');
    await page.keyboard.press('Space');
    const sent = await panel.waitForPosted('mcpSetAutoApprove');
    assert.deepEqual({ tool: sent.tool, autoApprove: sent.autoApprove }, { tool: 'add', autoApprove: false });
  });
});
