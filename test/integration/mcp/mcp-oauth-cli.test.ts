// The CLI signs in to an OAuth-protected server: the authorization URL is printed on stderr, the
// test's browser approves it, the task's first request waits for the server and its tool works;
// the tokens are kept in Smith's storage (mode 0600) and the next run uses them without asking.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { spawnCli, runCli } from '../../helpers/cli-runner.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { approveInBrowser, startOAuthFixture, type OAuthFixture } from '../../fixtures/mcp/oauth-fixture.js';

const callAdd = {
  text: '<use_mcp_tool>\n<server_name>remote</server_name>\n<tool_name>add</tool_name>\n<arguments>{"a": 40, "b": 2}</arguments>\n</use_mcp_tool>',
};
const complete = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

describe('smith CLI with an OAuth-protected MCP server', () => {
  let llm: ScriptedLlmServer;
  let fixture: OAuthFixture;
  let ws: TempWorkspace;
  let storage: string;
  let configFile: string;
  before(async () => (llm = await startScriptedLlmServer()));
  after(() => llm.close());
  beforeEach(async () => {
    fixture = await startOAuthFixture();
    ws = createTempWorkspace('smith-oauth-cli-');
    storage = mkdtempSync(join(tmpdir(), 'smith-oauth-cli-storage-'));
    configFile = join(ws.root, 'mcp.json');
    writeFileSync(configFile, JSON.stringify({ mcpServers: { remote: { url: fixture.mcpUrl } } }));
    llm.requests.length = 0;
  });
  afterEach(async () => {
    await fixture.close();
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });
  const args = (...extra: string[]) => [
    '--provider',
    'openai-compatible',
    '--base-url',
    llm.openAiBaseUrl,
    '--model',
    'scripted-model',
    '--cwd',
    ws.root,
    '--storage',
    storage,
    '--mcp-config',
    configFile,
    '--auto-approve',
    'mcp',
    ...extra,
  ];

  test('the URL goes to stderr; after the browser approves, the tool works; the next run needs no browser', async () => {
    llm.enqueue(callAdd, (request) => {
      const users = (request.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'user');
      assert.match(JSON.stringify(users.at(-1)!.content), /Result:\\n42/);
      return complete;
    });
    const run = spawnCli({ args: args('Add'), timeoutMs: 90_000 });
    const seen = await new Promise<string>((resolve, reject) => {
      let text = '';
      run.child.stderr!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const url = /asks you to sign in\. Open this address in a browser[^\n]*\n {2}(\S+)/.exec(text)?.[1];
        if (url) resolve(url);
      });
      run.child.on('close', () => reject(new Error(`the CLI ended without printing a sign-in URL:\n${text}`)));
    });
    assert.equal((await approveInBrowser(seen)).status, 200);
    const result = await run.done;
    assert.equal(result.code, 0, result.stderr);
    assert.match(String(llm.requests[0]!.body.messages[0].content), /## remote[\s\S]*- add: /, 'the first request waited for the sign-in');
    assert.equal(statSync(join(storage, 'mcp-credentials.json')).mode & 0o777, 0o600);
    llm.enqueue(callAdd, complete);
    const again = await runCli({ args: args('Add again'), timeoutMs: 60_000 });
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /sign in/);
    assert.deepEqual(fixture.provider.grants, ['authorization_code']);
  });
});
