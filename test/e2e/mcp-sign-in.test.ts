// OAuth sign-in to a remote MCP server in the real VS Code workbench with the PACKAGED extension:
// the server (the SDK's authorization server in front of the fixture MCP server) answers 401; the
// browser opens through vscode.env.openExternal, which in code-server is a new browser tab that
// the test follows; the user signs in there, the tokens go to SecretStorage (never to a file of the
// workspace or of the storage folders), and a task calls the server's tool. Sign out revokes the
// tokens, and the next call says sign-in is needed. Screenshots: .test-artifacts/e2e/mcp-sign-in-*.png.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/mcp/oauth-fixture';
import { useScriptedWorkbench } from '../helpers/scripted-workbench';

const UI_TIMEOUT = 60_000;
const callAdd = '<use_mcp_tool>\n<server_name>remote</server_name>\n<tool_name>add</tool_name>\n<arguments>\n{"a": 20, "b": 22}\n</arguments>\n</use_mcp_tool>';
const lastMessage = (body: { messages?: unknown }) => JSON.stringify((body.messages as unknown[]).at(-1));

/** Every file under `dir` (following no links) whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.isDirectory()) found.push(...filesContaining(path, needle));
    else if (stat.isFile() && readFileSync(path).includes(needle)) found.push(path);
  }
  return found;
}

describe('MCP OAuth sign-in in the real VS Code workbench (packaged .vsix)', { timeout: 600_000 }, () => {
  let fixture: OAuthFixture | undefined;
  const session = useScriptedWorkbench('mcp-sign-in', {
    prepare: async ({ storage }) => {
      fixture = await startOAuthFixture();
      storage.write('mcp_settings.json', JSON.stringify({ mcpServers: { remote: { url: fixture.mcpUrl } } }));
    },
    settings: { 'smith.autoApprove.mcpTools': true },
  });
  after(async () => {
    await fixture?.close();
  });

  /**
   * The fixture's authorization page, as code-server opens it: a localhost address goes through its
   * port proxy (http://<code-server>/proxy/PORT/…), which vscode.env.openExternal does on its own.
   */
  const authorizePage = () => {
    const port = new URL(fixture!.origin).port;
    return new RegExp(`^(${fixture!.origin.replace(/[.]/g, '\\.')}|http://127\\.0\\.0\\.1:\\d+/proxy/${port})/authorize\\?`);
  };

  /** The next tab the workbench opens (vscode.env.openExternal), once its page has loaded. */
  async function nextTab(known: readonly Page[]): Promise<Page> {
    const { browser } = session.workbench;
    const deadline = Date.now() + UI_TIMEOUT;
    for (;;) {
      const tab = browser.pages().find((page) => !known.includes(page));
      if (tab) {
        await tab.waitForLoadState('load', { timeout: UI_TIMEOUT });
        return tab;
      }
      if (Date.now() > deadline) throw new Error('no browser tab opened for the sign-in');
      await browser.waitForEvent('page', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
    }
  }

  it('signs in from the MCP view in a browser tab, keeps the tokens in SecretStorage, calls the tool, and signs out', async () => {
    const { workbench, llm, workspace, storage } = session;
    const known = [workbench.page];
    await workbench.openViewContainer('Smith');
    const panel = workbench.webviewFrame();
    await panel.getByRole('textbox', { name: 'Task' }).waitFor({ timeout: UI_TIMEOUT });

    // The server asks for sign-in on its own at start: the first tab is declined (consent denied).
    const first = await nextTab(known);
    known.push(first);
    assert.match(first.url(), authorizePage(), 'the tab shows the authorization server');
    await first.getByRole('button', { name: 'Deny' }).click();
    await first.getByText(/access_denied/).waitFor({ timeout: UI_TIMEOUT });

    await workbench.page.getByRole('button', { name: 'MCP Servers' }).click();
    const servers = panel.getByRole('list', { name: 'Servers' });
    const card = servers.getByRole('listitem').filter({ has: panel.getByRole('heading', { name: 'remote' }) });
    await card
      .getByRole('group', { name: 'Error of remote' })
      .getByText(/refused the sign-in: access_denied/)
      .waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('mcp-sign-in-1-needs-sign-in');

    await card.getByRole('button', { name: 'Sign in to remote' }).click();
    const tab = await nextTab(known);
    known.push(tab);
    assert.match(tab.url(), authorizePage());
    const authorization = new URL(tab.url());
    assert.match(authorization.searchParams.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    await tab.getByRole('button', { name: 'Approve' }).click();
    await tab.getByText('Signed in to MCP server "remote"').waitFor({ timeout: UI_TIMEOUT });
    await card.getByRole('button', { name: 'Sign out of remote' }).waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('mcp-sign-in-2-signed-in');

    // The tokens are in SecretStorage: in no file of the workspace, Smith's storage or the extension's storage.
    const tokens = fixture!.provider.issued.at(-1)!;
    const userData = workbench.server.userDataDir;
    for (const secret of [tokens.access_token, tokens.refresh_token!]) {
      assert.deepEqual(
        [
          ...filesContaining(workspace.root, secret),
          ...filesContaining(storage.root, secret),
          ...filesContaining(join(userData, 'User', 'globalStorage'), secret),
          ...filesContaining(join(userData, 'User', 'workspaceStorage'), secret),
        ],
        [],
      );
    }
    assert.equal(existsSync(join(storage.root, 'mcp-credentials.json')), false, 'the CLI credentials file is not used');

    // A task calls the tool with the token.
    await panel.getByRole('button', { name: 'Back to chat' }).click();
    const box = panel.getByRole('textbox', { name: 'Task' });
    llm.enqueue({ text: callAdd }, { text: '<attempt_completion>\n<result>The server added them.</result>\n</attempt_completion>' });
    await box.fill('Add 20 and 22 with the remote server');
    await panel.getByRole('button', { name: 'Send', exact: true }).click();
    await panel.locator('.completion-card').getByText('The server added them.').waitFor({ timeout: UI_TIMEOUT });
    assert.match(lastMessage(llm.requestAt(1).body), /\[use_mcp_tool for 'remote\/add'\] Result:\\n42/);
    assert.ok(fixture!.mcpAuthorizations.includes(`Bearer ${tokens.access_token}`), 'the call carried the token');

    // Sign out: the tokens are revoked and forgotten; the next call says sign-in is needed.
    await workbench.page.getByRole('button', { name: 'MCP Servers' }).click();
    await card.getByRole('button', { name: 'Sign out of remote' }).click();
    await card.getByRole('button', { name: 'Sign in to remote' }).waitFor({ timeout: UI_TIMEOUT });
    await card.getByText(/Signed out\. The authorization server revoked the tokens/).waitFor({ timeout: UI_TIMEOUT });
    assert.deepEqual(
      fixture!.revocations.map((r) => [r.tokenTypeHint, r.token]),
      [
        ['refresh_token', tokens.refresh_token],
        ['access_token', tokens.access_token],
      ],
    );
    assert.equal(fixture!.provider.kindOf(tokens.access_token), 'unknown', 'the server no longer honours the token');
    await workbench.screenshot('mcp-sign-in-3-signed-out');

    await panel.getByRole('button', { name: 'Back to chat' }).click();
    await panel
      .getByRole('button', { name: 'New task' })
      .click()
      .catch(() => undefined);
    llm.enqueue({ text: callAdd }, { text: '<attempt_completion>\n<result>The server needs a sign-in.</result>\n</attempt_completion>' });
    await box.fill('Add them again');
    await panel.getByRole('button', { name: 'Send', exact: true }).click();
    await panel.locator('.completion-card').getByText('The server needs a sign-in.').waitFor({ timeout: UI_TIMEOUT });
    assert.match(lastMessage(llm.requests.at(-1)!.body), /MCP server \\"remote\\" is not available: it needs you to sign in/);
    assert.equal(known.length, 3, 'signing out opened no tab');
    assert.equal(workbench.browser.pages().length, 3);
  });
});
