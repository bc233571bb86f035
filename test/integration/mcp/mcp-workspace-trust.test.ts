// A cloned repository's .smith/mcp.json starts nothing until the user trusts the workspace: the
// CLI refuses without --trust-workspace (and goes on without those servers), starts them with it,
// and a workspace file can neither auto-approve its tools nor replace a user-level server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { startCliMcp } from '../../../src/cli/mcp-setup.js';
import { CLI_PATH, runCli } from '../../helpers/cli-runner.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { systemPromptOf, useAgentFixture } from '../../helpers/agent-fixture.js';
import { npmServerEntry, writeConfig } from '../../fixtures/mcp/mcp-test-support.js';

const complete = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

describe('a workspace .smith/mcp.json and trust', () => {
  const fx = useAgentFixture();
  let marker: string;
  beforeEach(() => {
    marker = join(fx.ws.root, 'server-started.marker');
    // The real memory server, started by a command that first leaves a marker file behind.
    const memory = npmServerEntry('server-memory') as { command: string; args: string[] };
    const script = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'started'); import(${JSON.stringify(memory.args[0])});`;
    writeConfig(join(fx.ws.root, '.smith', 'mcp.json'), {
      memory: { command: memory.command, args: ['-e', script], env: { MEMORY_FILE_PATH: join(fx.ws.root, 'memory.jsonl') }, autoApprove: ['read_graph'] },
    });
  });

  test('without trust nothing starts; the task goes on without the servers and the message names --trust-workspace', async () => {
    fx.server.enqueue(complete);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Do it'], timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(existsSync(marker), false, 'the workspace server was started without trust');
    assert.match(run.stderr, /MCP servers of .*\.smith\/mcp\.json were not started/);
    assert.match(run.stderr, /memory: .*node.* -e /);
    assert.match(run.stderr, /--trust-workspace/);
    assert.doesNotMatch(systemPromptOf(fx.server.requests[0]!), /## memory/);
  });

  test('--output json refuses the same way, with the message on stderr and clean JSON on stdout', async () => {
    fx.server.enqueue(complete);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', 'Do it'], timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(existsSync(marker), false);
    assert.equal(JSON.parse(run.stdout).success, true);
    assert.match(run.stderr, /--trust-workspace/);
  });

  test('--trust-workspace starts them; the workspace file cannot auto-approve its tools', async () => {
    fx.server.enqueue(
      { text: '<use_mcp_tool>\n<server_name>memory</server_name>\n<tool_name>read_graph</tool_name>\n<arguments>{}</arguments>\n</use_mcp_tool>' },
      complete,
    );
    // No --yes: the tool call has to be asked, and with nobody to answer it is rejected.
    const run = await runCli({ args: [...fx.cliArgs(), '--trust-workspace', 'Read the graph'], timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(existsSync(marker), true, 'the trusted workspace server did not start');
    assert.match(systemPromptOf(fx.server.requests[0]!), /## memory/);
    assert.match(run.stderr, /server "memory": field "autoApprove": ignored: a workspace file cannot auto-approve tools/);
    assert.match(run.stderr, /\? .*memory/);
    assert.match(run.stderr, /✗ rejected/);
  });

  test('on a terminal smith asks once; "y" starts the servers and later runs (even without a terminal) remember it', async () => {
    fx.server.enqueue(complete, complete);
    const args = [...fx.cliArgs(), '--yes', 'Do it'];
    // util-linux `script` gives the CLI a pseudo-terminal, so stdin and stderr are TTYs.
    const command = [process.execPath, CLI_PATH, ...args].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } });
    let output = '';
    let answered = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!answered && /Start them\? \[y\]es \/ \[N\]o: /.test(output)) {
        answered = true;
        assert.equal(existsSync(marker), false, 'started before the answer');
        child.stdin.write('y\r');
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    assert.equal(code, 0, output);
    assert.ok(answered, output);
    assert.match(output, /wants to start these MCP servers:[\s\S]*memory: /);
    assert.equal(existsSync(marker), true);
    rmSync(marker);
    const again = await runCli({ args, timeoutMs: 60_000 });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(existsSync(marker), true, 'the remembered answer did not start the server');
    assert.doesNotMatch(again.stderr, /Start them\?|--trust-workspace/);
  });

  test("a workspace server cannot take the name of a user-level one: the user's server is used, with a warning", async () => {
    writeConfig(join(fx.storage, 'mcp_settings.json'), { memory: npmServerEntry('server-memory') });
    fx.server.enqueue(complete);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--trust-workspace', 'Do it'], timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(existsSync(marker), false, 'the workspace entry replaced the user-level server');
    assert.match(run.stderr, /server "memory": ignored: a user-level server of the same name \(in .*mcp_settings\.json\) is used instead/);
    assert.match(systemPromptOf(fx.server.requests[0]!), /## memory/);
  });
});

describe('startCliMcp asks once per workspace and remembers the answer', () => {
  let ws: TempWorkspace;
  let storage: string;
  beforeEach(() => {
    ws = createTempWorkspace('smith-trust-ask-');
    storage = mkdtempSync(join(tmpdir(), 'smith-trust-ask-storage-'));
    writeConfig(join(ws.root, '.smith', 'mcp.json'), { memory: npmServerEntry('server-memory') });
  });
  afterEach(() => {
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });

  async function start(answer: boolean | undefined | 'not asked', asked: string[][]) {
    const warnings: string[] = [];
    const mcp = await startCliMcp({
      cwd: ws.root,
      storageDir: storage,
      ...(answer === 'not asked'
        ? {}
        : {
            askTrust: async (servers: readonly string[]) => {
              asked.push([...servers]);
              return answer;
            },
          }),
      warn: (m) => warnings.push(m),
    });
    // Servers connect in the background; what a task's first request waits for.
    await mcp.wiring.ready(new AbortController().signal);
    const status = mcp.hub.server('memory')?.status;
    await mcp.dispose();
    return { status, warnings: warnings.join('\n') };
  }

  test('yes starts the servers and later runs start them without asking; a changed file asks again', async () => {
    const asked: string[][] = [];
    assert.equal((await start(true, asked)).status, 'connected');
    assert.equal(asked.length, 1);
    assert.match(asked[0]![0]!, /^memory: .*server-memory/);
    assert.equal((await start('not asked', asked)).status, 'connected');
    assert.equal((await start(false, asked)).status, 'connected');
    assert.equal(asked.length, 1, 'asked again for an answered workspace');
    writeConfig(join(ws.root, '.smith', 'mcp.json'), { memory: npmServerEntry('server-memory', '--changed') });
    const changed = await start('not asked', asked);
    assert.equal(changed.status, undefined);
    assert.match(changed.warnings, /not trusted yet/);
  });

  test('no is remembered: nothing starts and nobody is asked again; no answer (input ended) is not remembered', async () => {
    const asked: string[][] = [];
    assert.equal((await start(undefined, asked)).status, undefined);
    assert.equal((await start(false, asked)).status, undefined);
    assert.equal(asked.length, 2);
    const again = await start(true, asked);
    assert.equal(again.status, undefined);
    assert.equal(asked.length, 2);
    assert.match(again.warnings, /you chose not to trust/);
    assert.match(again.warnings, /--trust-workspace/);
  });
});
