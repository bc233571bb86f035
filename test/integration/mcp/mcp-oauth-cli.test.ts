// The CLI signs in to an OAuth-protected server: on a terminal the authorization URL is printed on
// stderr, the test's browser approves it, the task's first request waits for the server and its tool works;
// the tokens are kept in Smith's storage (mode 0600) and the next run uses them without asking.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { CLI_PATH, runCli } from '../../helpers/cli-runner.js';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { approveInBrowser, startOAuthFixture, type OAuthFixture } from '../../fixtures/mcp/oauth-fixture.js';

const callAdd = {
  text: '<use_mcp_tool>\n<server_name>remote</server_name>\n<tool_name>add</tool_name>\n<arguments>{"a": 40, "b": 2}</arguments>\n</use_mcp_tool>',
};
const complete = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

describe('smith CLI with an OAuth-protected MCP server', () => {
  const fx = useAgentFixture();
  let fixture: OAuthFixture;
  let configFile: string;
  beforeEach(async () => {
    fixture = await startOAuthFixture();
    configFile = join(fx.ws.root, 'mcp.json');
    writeFileSync(configFile, JSON.stringify({ mcpServers: { remote: { url: fixture.mcpUrl } } }));
  });
  afterEach(async () => {
    await fixture.close();
  });
  const args = (...extra: string[]) => [...fx.cliArgs(), '--mcp-config', configFile, '--auto-approve', 'mcp', ...extra];

  test('on a terminal the URL goes to stderr; after the browser approves, the tool works; the next run needs no browser', async () => {
    fx.server.enqueue(callAdd, (request) => {
      const users = (request.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'user');
      assert.match(JSON.stringify(users.at(-1)!.content), /Result:\\n42/);
      return complete;
    });
    // util-linux `script` gives the CLI a pseudo-terminal: someone is there to open the address.
    const command = [process.execPath, CLI_PATH, ...args('Add')].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } });
    let output = '';
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = /asks you to sign in\. Open this address in a browser[^\n]*\n {2}(\S+)/.exec(output)?.[1];
        if (found) resolve(found);
      });
      void closed.then(() => reject(new Error(`the CLI ended without printing a sign-in URL:\n${output}`)));
    });
    assert.equal((await approveInBrowser(url)).status, 200);
    assert.equal(await closed, 0, output);
    assert.match(String(fx.server.requests[0]!.body.messages[0].content), /## remote[\s\S]*- add: /, 'the first request waited for the sign-in');
    assert.equal(statSync(join(fx.storage, 'mcp-credentials.json')).mode & 0o777, 0o600);
    // Without a terminal, the stored tokens are used.
    fx.server.enqueue(callAdd, complete);
    const again = await runCli({ args: args('Add again'), timeoutMs: 60_000 });
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /sign in/);
    assert.deepEqual(fixture.provider.grants, ['authorization_code']);
  });

  test('without a terminal and without tokens nothing waits for a sign-in: the server needs sign-in and the task goes on', async () => {
    fx.server.enqueue(complete);
    const run = await runCli({ args: args('Do it'), timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /MCP server "remote" needs you to sign in .*run smith on a terminal, or \/mcp login remote/);
    assert.doesNotMatch(run.stderr, /Open this address/);
    assert.doesNotMatch(String(fx.server.requests[0]!.body.messages[0].content), /- add: /);
    assert.equal(fixture.provider.clientsStore.registrations, 0);
  });
});
