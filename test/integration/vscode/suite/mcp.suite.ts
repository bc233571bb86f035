// The window's MCP servers in the real workbench: the extension's hub picks up the workspace's
// .smith/mcp.json (the SDK fixture server, run by plain node), the panel state lists the server
// and its tools, and the MCP view's requests edit the config file (comments kept), disable,
// restart, show the log and open the settings; a task calls the server's tool.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { mergeMcpConfigFiles, parseMcpConfigText } from '../../../../src/core/mcp/mcp-config';
import { WorkspaceTrust } from '../../../../src/core/mcp/workspace-trust';
import { MCP_LOG_SCHEME } from '../../../../src/host/vscode/mcp-documents';
import { createMessageHandlers } from '../../../../src/panel/message-handlers';
import { PanelMessenger, type WebviewEndpoint } from '../../../../src/panel/panel-messenger';
import type { SmithApi } from '../../../../src/host/vscode/smith-api';
import type { HostMessage, McpServerView } from '../../../../src/shared/protocol';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../fixtures/scripted-llm-server';
import { until } from '../../../helpers/until';

const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const configFile = join(workspace, '.smith', 'mcp.json');

/** Stands in for the webview: records what the host posts, always visible. */
class RecordingWebview implements WebviewEndpoint {
  readonly posted: HostMessage[] = [];
  private readonly never = new vscode.EventEmitter<unknown>();
  readonly onDidReceiveMessage = this.never.event;
  readonly onDidChangeVisibility = this.never.event;
  postMessage(message: HostMessage): Thenable<boolean> {
    this.posted.push(message);
    return Promise.resolve(true);
  }
  isVisible(): boolean {
    return true;
  }
  /** The fixture server as the webview last saw it (snapshot or mcpState). */
  fixture(): McpServerView | undefined {
    for (let i = this.posted.length - 1; i >= 0; i--) {
      const message = this.posted[i]!;
      const mcp = message.type === 'snapshot' ? message.state.mcp : message.type === 'mcpState' ? message.state : undefined;
      if (mcp) return mcp.servers.find((s) => s.name === 'fixture');
    }
    return undefined;
  }
  reply(id: string): HostMessage | undefined {
    return this.posted.find((m) => m.type === 'reply' && m.id === id);
  }
}

/** Bundles the TypeScript fixture server into one .cjs file plain node runs (the host has no tsx). */
function bundleFixture(repoRoot: string, outDir: string): string {
  const outfile = join(outDir, 'fixture-server.cjs');
  // After install, esbuild's bin is the native executable for this platform.
  const esbuild = join(repoRoot, 'node_modules', 'esbuild', 'bin', 'esbuild');
  execFileSync(
    esbuild,
    [join(repoRoot, 'test/fixtures/mcp/fixture-server-main.ts'), '--bundle', '--platform=node', '--format=cjs', `--outfile=${outfile}`, '--log-level=warning'],
    {
      cwd: repoRoot,
    },
  );
  return outfile;
}

function configText(fixtureJs: string): string {
  return `{
  // Servers of the MCP suite; this comment must survive the panel's edits.
  "mcpServers": {
    "fixture": {
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(fixtureJs)}, "--name", "fixture"], // the SDK fixture, bundled
      "autoApprove": [],
      "timeout": 30
    },
    /* An invalid entry: reported, the other server unaffected. */
    "broken": { "command": "node", "timeout": 0 }
  }
}
`;
}

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('MCP servers in the VS Code host', function () {
  this.timeout(90_000);
  let api: SmithApi;
  let tempDir: string;
  let webview: RecordingWebview;
  let messenger: PanelMessenger;
  let counter = 0;

  /** Sends a request as the webview would; returns its reply. */
  async function request(message: Record<string, unknown>): Promise<HostMessage | undefined> {
    const id = `mcp-${++counter}`;
    await messenger.receive({ ...message, id });
    return webview.reply(id);
  }
  const fixture = () => api.mcp.hub.server('fixture');
  const serverPid = async () => Number(textOf(await api.mcp.hub.callTool('fixture', 'pid', {})));

  before(async () => {
    const extension = vscode.extensions.getExtension<SmithApi>('smith.smith')!;
    api = await extension.activate();
    tempDir = mkdtempSync(join(tmpdir(), 'smith-mcp-suite-'));
    const fixtureJs = bundleFixture(extension.extensionPath, tempDir);
    mkdirSync(join(workspace, '.smith'), { recursive: true });
    // The user trusted this workspace's servers before (the question itself is tested in-process).
    const text = configText(fixtureJs);
    const held = mergeMcpConfigFiles([parseMcpConfigText(text, { path: configFile, scope: 'workspace', baseDir: workspace })]).untrusted!;
    new WorkspaceTrust({ storageDir: api.storageDir }).remember(workspace, held.fingerprint, true);
    writeFileSync(configFile, text);
    webview = new RecordingWebview();
    messenger = new PanelMessenger(webview, api.controller, createMessageHandlers(api.controller, api.mcp));
    await messenger.receive({ type: 'ready' });
  });

  after(async () => {
    messenger.dispose();
    rmSync(join(workspace, '.smith'), { recursive: true, force: true });
    await api.mcp.reload();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(tempDir, { recursive: true, force: true });
  });

  it('the watcher picks up .smith/mcp.json; the hub connects and the panel lists the server, its tools and the problems', async () => {
    await until(() => fixture()?.status === 'connected', 'the fixture server to connect');
    const mcp = api.controller.snapshot().mcp;
    assert.equal(mcp.configFiles.workspace, configFile);
    assert.equal(mcp.configFiles.global, api.mcp.configPath('global'));
    const server = mcp.servers.find((s) => s.name === 'fixture')!;
    assert.equal(server.status, 'connected');
    assert.equal(server.source, configFile);
    assert.equal(server.scope, 'workspace');
    assert.equal(server.transport, 'stdio');
    assert.equal(server.disabled, false);
    const names = server.tools.map((t) => t.name);
    for (const name of ['add', 'pid', 'fail']) assert.ok(names.includes(name), `tool ${name} in ${names.join(', ')}`);
    assert.deepEqual(
      server.tools.find((t) => t.name === 'add'),
      { name: 'add', description: 'Add two numbers.', autoApproved: false },
    );
    assert.ok(!JSON.stringify(mcp).includes('inputSchema'), 'snapshots carry no schemas');
    assert.deepEqual(server.resources, [{ uri: 'fixture://greeting', name: 'greeting' }]);
    assert.deepEqual(server.resourceTemplates, [{ uriTemplate: 'fixture://items/{id}', name: 'item' }]);

    const broken = mcp.servers.find((s) => s.name === 'broken')!;
    assert.equal(broken.status, 'error');
    assert.match(broken.error ?? '', /timeout/);
    assert.deepEqual(
      mcp.problems.map((p) => ({ file: p.file, server: p.server, field: p.field })),
      [{ file: configFile, server: 'broken', field: 'timeout' }],
    );
    // The webview heard about it without asking for a snapshot.
    await until(() => webview.fixture()?.status === 'connected', 'an mcpState with the connected server');
    assert.ok(webview.posted.some((m) => m.type === 'mcpState'));
  });

  it('a changed workspace file starts nothing until trusted again; the trusted version runs again', async () => {
    const trusted = readFileSync(configFile, 'utf8');
    const changed = trusted.replace(
      '"mcpServers": {',
      `"mcpServers": {\n    "stranger": { "command": ${JSON.stringify(process.execPath)}, "args": ["-e", "setInterval(() => {}, 1000)"] },`,
    );
    try {
      writeFileSync(configFile, changed);
      await until(
        () =>
          api.mcp.hub.configProblems().some((p) => /\(stranger, fixture\) were not started: this workspace's MCP settings are not trusted yet/.test(p.message)),
        'the untrusted change',
      );
      assert.equal(api.mcp.hub.server('stranger'), undefined);
      assert.equal(api.mcp.hub.server('fixture'), undefined);
    } finally {
      writeFileSync(configFile, trusted);
    }
    await until(() => fixture()?.status === 'connected', 'the trusted version to connect again');
  });

  it('a workspace server cannot be auto-approved: the request is refused and the file is left alone', async () => {
    const before = readFileSync(configFile, 'utf8');
    const reply = await request({ type: 'mcpSetAutoApprove', server: 'fixture', tool: 'add', autoApprove: true });
    assert.ok(reply?.type === 'reply' && !reply.ok && /cannot auto-approve tools/.test(reply.error), JSON.stringify(reply));
    assert.equal(readFileSync(configFile, 'utf8'), before);
    assert.equal(api.mcp.hub.isAutoApproved('fixture', 'add'), false);
  });

  it('disable writes "disabled": true and the status becomes disabled; enable reconnects', async () => {
    const reply = await request({ type: 'mcpSetDisabled', server: 'fixture', disabled: true });
    assert.equal(reply?.type === 'reply' && reply.ok, true, JSON.stringify(reply));
    assert.match(readFileSync(configFile, 'utf8'), /"disabled": true/);
    await until(() => fixture()?.status === 'disabled', 'the disabled status');
    assert.equal(api.controller.snapshot().mcp.servers.find((s) => s.name === 'fixture')?.disabled, true);
    await until(() => webview.fixture()?.status === 'disabled', 'the webview to hear of it');

    await request({ type: 'mcpSetDisabled', server: 'fixture', disabled: false });
    assert.match(readFileSync(configFile, 'utf8'), /"disabled": false/);
    await until(() => fixture()?.status === 'connected', 'the server to reconnect');
    assert.match(readFileSync(configFile, 'utf8'), /\/\/ Servers of the MCP suite/);
  });

  it('restart reconnects to a new server process', async () => {
    const before = await serverPid();
    const reply = await request({ type: 'mcpRestart', server: 'fixture' });
    assert.equal(reply?.type === 'reply' && reply.ok, true, JSON.stringify(reply));
    assert.equal(fixture()?.status, 'connected');
    assert.notEqual(await serverPid(), before);
  });

  it('smith.mcp.discoveryThreshold switches discovery mode for the next turn', async () => {
    const config = vscode.workspace.getConfiguration('smith');
    assert.ok(api.mcp.wiring.hiddenTools().has('search_mcp_tools'), 'a few tools are listed in full');
    await config.update('mcp.discoveryThreshold', 1, vscode.ConfigurationTarget.Global);
    try {
      assert.equal(api.mcp.wiring.hiddenTools().has('search_mcp_tools'), false);
      assert.match(api.mcp.wiring.promptSections().join('\n'), /search_mcp_tools/);
    } finally {
      await config.update('mcp.discoveryThreshold', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.ok(api.mcp.wiring.hiddenTools().has('search_mcp_tools'));
  });

  it('show log opens the server output in a read-only editor', async () => {
    const reply = await request({ type: 'mcpShowLog', server: 'fixture' });
    assert.equal(reply?.type === 'reply' && reply.ok, true, JSON.stringify(reply));
    const document = vscode.window.activeTextEditor?.document;
    assert.equal(document?.uri.scheme, MCP_LOG_SCHEME);
    assert.match(document!.getText(), /MCP server "fixture": connected/);
    assert.match(document!.getText(), /fixture fixture started \(pid \d+\)/);
    const unknown = await request({ type: 'mcpShowLog', server: 'nope' });
    assert.deepEqual(unknown, { type: 'reply', id: `mcp-${counter}`, ok: false, error: 'There is no MCP server named "nope".' });
  });

  it('open settings opens the workspace file, and creates the global one when missing', async () => {
    await request({ type: 'mcpOpenConfig', scope: 'workspace' });
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, configFile);
    assert.equal(vscode.window.activeTextEditor?.document.languageId, 'jsonc');

    const global = api.mcp.configPath('global');
    const existed = existsSync(global);
    try {
      const reply = await request({ type: 'mcpOpenConfig', scope: 'global' });
      assert.equal(reply?.type === 'reply' && reply.ok, true, JSON.stringify(reply));
      assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, global);
      if (!existed) assert.deepEqual(JSON.parse(readFileSync(global, 'utf8')), { mcpServers: {} });
    } finally {
      if (!existed) rmSync(global, { force: true });
    }
  });

  it('bad requests get one error reply each', async () => {
    const invalid = await request({ type: 'mcpSetAutoApprove', server: 'fixture', tool: 'add' });
    assert.ok(invalid?.type === 'reply' && !invalid.ok && /autoApprove/.test(invalid.error), JSON.stringify(invalid));
    const unknown = await request({ type: 'mcpSetDisabled', server: 'nope', disabled: true });
    assert.ok(unknown?.type === 'reply' && !unknown.ok && /no MCP server named "nope"/.test(unknown.error));
  });

  it('the smith.openMcp command switches the panel to the MCP view', async () => {
    await vscode.commands.executeCommand('smith.openMcp');
    assert.equal(api.controller.snapshot().view, 'mcp');
    api.controller.showView('chat');
  });

  describe('in a task', () => {
    let llm: ScriptedLlmServer;
    const SETTINGS = ['provider', 'baseUrl', 'model', 'autoApprove.mcpTools'];
    before(async () => {
      llm = await startScriptedLlmServer();
      const config = vscode.workspace.getConfiguration('smith');
      const target = vscode.ConfigurationTarget.Global;
      await config.update('provider', 'openai-compatible', target);
      await config.update('baseUrl', llm.openAiBaseUrl, target);
      await config.update('model', 'scripted-model', target);
    });
    after(async () => {
      await api.controller.closeAllTasks();
      const config = vscode.workspace.getConfiguration('smith');
      for (const key of SETTINGS) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
      await llm.close();
    });

    it('the prompt lists the server and an auto-approved tool runs without asking', async () => {
      // A workspace server's tools are auto-approved only by the user's own setting.
      await vscode.workspace.getConfiguration('smith').update('autoApprove.mcpTools', true, vscode.ConfigurationTarget.Global);
      llm.enqueue(
        {
          text: 'Adding.\n\n<use_mcp_tool>\n<server_name>fixture</server_name>\n<tool_name>add</tool_name>\n<arguments>{"a": 2, "b": 3}</arguments>\n</use_mcp_tool>',
        },
        { text: '<attempt_completion>\n<result>2 + 3 = 5</result>\n</attempt_completion>' },
      );
      await api.controller.newTask('Add 2 and 3 with the fixture server');
      await until(() => ['completed', 'failed', 'awaiting_approval'].includes(api.controller.snapshot().task?.status ?? ''), 'the task to end', 30_000);
      const task = api.controller.snapshot().task!;
      assert.equal(task.status, 'completed', JSON.stringify({ error: task.error, approval: task.pendingApproval, messages: task.messages.slice(-3) }));
      assert.equal(llm.requests.length, 2);
      const system = JSON.stringify(llm.requests[0]!.body.messages[0]);
      assert.match(system, /# MCP servers/);
      assert.match(system, /fixture/);
      // The tool's result went back to the model with no approval in between.
      const last = llm.requests[1]!.body.messages.at(-1) as { content: unknown };
      const result = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
      assert.match(result, /\[use_mcp_tool for 'fixture\/add'\] Result:\s*5\s/);
      assert.equal(api.interactions.pendingApproval, undefined);
    });
  });
});
