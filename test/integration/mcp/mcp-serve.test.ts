// `smith mcp-serve`: an SDK Client connects over stdio and uses Smith's workspace tools.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { REPO_ROOT } from '../../fixtures/mcp/mcp-test-support.js';
import { listCodeDefinitionNamesTool } from '../../../src/core/tools/list-code-definition-names.js';
import { listFilesTool } from '../../../src/core/tools/list-files.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { replaceInFileTool } from '../../../src/core/tools/replace-in-file.js';
import { searchFilesTool } from '../../../src/core/tools/search-files.js';
import { writeToFileTool } from '../../../src/core/tools/write-to-file.js';

/** The built CLI once main.ts routes `mcp-serve`; until then the source entry with tsx. */
function serveCommand(args: string[]): { command: string; args: string[] } {
  const cli = join(REPO_ROOT, 'dist/cli.js');
  const wired = existsSync(cli) && readFileSync(join(REPO_ROOT, 'src/cli/main.ts'), 'utf8').includes("'mcp-serve'");
  return wired
    ? { command: process.execPath, args: [cli, 'mcp-serve', ...args] }
    : { command: process.execPath, args: ['--import', 'tsx', join(REPO_ROOT, 'test/fixtures/mcp/mcp-serve-entry.ts'), ...args] };
}

async function connect(args: string[]): Promise<Client> {
  const { command, args: fullArgs } = serveCommand(args);
  const client = new Client({ name: 'smith-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args: fullArgs, cwd: REPO_ROOT, stderr: 'pipe' }));
  return client;
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('smith mcp-serve', () => {
  let ws: TempWorkspace;
  let outside: string;
  let client: Client;
  before(async () => {
    ws = createTempWorkspace('smith-mcp-serve-');
    ws.write('src/app.ts', 'export const port = 3000;\nexport function start() {\n  return port;\n}\n');
    ws.write('secrets/key.txt', 'do not read\n');
    ws.write('.smithignore', 'secrets/\n');
    outside = mkdtempSync(join(tmpdir(), 'smith-outside-'));
    writeFileSync(join(outside, 'private.txt'), 'outside the workspace\n');
    client = await connect(['--cwd', ws.root]);
  });
  after(async () => {
    await client.close();
    ws.dispose();
    rmSync(outside, { recursive: true, force: true });
  });

  test('lists the workspace tools with schemas generated from their specs, and run_task', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['read_file', 'list_files', 'search_files', 'list_code_definition_names', 'replace_in_file', 'write_to_file', 'run_task'],
    );
    const readFile = tools.find((t) => t.name === 'read_file')!;
    assert.deepEqual(readFile.inputSchema.required, ['path']);
    assert.deepEqual((readFile.inputSchema.properties as Record<string, { type: string }>).start_line!.type, 'string');
    assert.equal(readFile.annotations?.readOnlyHint, true);
    assert.equal(tools.find((t) => t.name === 'write_to_file')!.annotations?.readOnlyHint, false);
  });

  // Byte for byte what the SDK made of the classic zod shapes these tools had before zod/mini
  // (the order of `description` and `type` included), so no client sees a changed schema.
  test("each tool's input schema, as JSON, is exactly the one its spec describes", async () => {
    const { tools } = await client.listTools();
    const draft7 = 'http://json-schema.org/draft-07/schema#';
    const workspaceTools = [readFileTool, listFilesTool, searchFilesTool, listCodeDefinitionNamesTool, replaceInFileTool, writeToFileTool];
    const expected = [
      ...workspaceTools.map(({ spec }) => ({
        name: spec.name,
        inputSchema: {
          type: 'object',
          properties: Object.fromEntries(
            spec.params.map((p) => [p.name, p.required ? { type: 'string', description: p.description } : { description: p.description, type: 'string' }]),
          ),
          required: spec.params.filter((p) => p.required).map((p) => p.name),
          $schema: draft7,
        },
      })),
      {
        name: 'run_task',
        inputSchema: {
          type: 'object',
          properties: { task: { type: 'string', minLength: 1, description: 'What Smith should do, in plain language.' } },
          required: ['task'],
          $schema: draft7,
        },
      },
    ];
    assert.equal(JSON.stringify(tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema }))), JSON.stringify(expected));
  });

  test('read_file, list_files and search_files work inside the workspace', async () => {
    assert.match(
      textOf(await client.callTool({ name: 'read_file', arguments: { path: 'src/app.ts' } })),
      /^1 \| export const port = 3000;\n2 \| export function start\(\) \{/,
    );
    const listing = textOf(await client.callTool({ name: 'list_files', arguments: { path: '.', recursive: 'true' } }));
    assert.match(listing, /src\//);
    assert.doesNotMatch(listing, /secrets/);
    assert.match(textOf(await client.callTool({ name: 'search_files', arguments: { path: '.', regex: 'port' } })), /src\/app\.ts/);
  });

  test('replace_in_file and write_to_file change the files', async () => {
    const edited = await client.callTool({
      name: 'replace_in_file',
      arguments: { path: 'src/app.ts', diff: '------- SEARCH\nexport const port = 3000;\n=======\nexport const port = 8080;\n+++++++ REPLACE' },
    });
    assert.equal(textOf(edited), 'The file src/app.ts was saved successfully.');
    assert.match(ws.read('src/app.ts'), /port = 8080/);
    await client.callTool({ name: 'write_to_file', arguments: { path: 'notes/todo.md', content: '- ship it' } });
    assert.equal(ws.read('notes/todo.md'), '- ship it\n');
  });

  test("paths outside the workspace and .smithignore'd files are refused", async () => {
    const outsideRead = (await client.callTool({ name: 'read_file', arguments: { path: join(outside, 'private.txt') } })) as CallToolResult;
    assert.equal(outsideRead.isError, true);
    assert.match(textOf(outsideRead), /^Refused: The path is outside the workspace \(.+\); smith mcp-serve only works inside it\.$/);
    const outsideWrite = (await client.callTool({ name: 'write_to_file', arguments: { path: '../escape.txt', content: 'x' } })) as CallToolResult;
    assert.equal(outsideWrite.isError, true);
    assert.ok(!existsSync(join(ws.root, '..', 'escape.txt')));
    const ignored = (await client.callTool({ name: 'read_file', arguments: { path: 'secrets/key.txt' } })) as CallToolResult;
    assert.equal(ignored.isError, true);
    assert.match(textOf(ignored), /blocked by the \.smithignore file/);
  });

  test('a bad call is an error result, not a crash', async () => {
    const missing = (await client.callTool({ name: 'read_file', arguments: { path: 'nope.ts' } })) as CallToolResult;
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /File not found: nope\.ts/);
  });

  test('run_task without a provider says how to configure one', async () => {
    const result = (await client.callTool({ name: 'run_task', arguments: { task: 'anything' } })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.match(textOf(result), /run_task needs a model provider/);
  });
});

describe('smith mcp-serve run_task with a model', () => {
  let llm: ScriptedLlmServer;
  let ws: TempWorkspace;
  let client: Client;
  before(async () => {
    llm = await startScriptedLlmServer();
    ws = createTempWorkspace('smith-mcp-serve-task-');
    ws.write('version.txt', '1.0\n');
    client = await connect(['--cwd', ws.root, '--base-url', llm.openAiBaseUrl, '--model', 'scripted-model']);
  });
  after(async () => {
    await client.close();
    await llm.close();
    ws.dispose();
  });

  test('runs a whole Smith task, reports each step as progress, and returns its result', async () => {
    llm.enqueue(
      { text: '<replace_in_file>\n<path>version.txt</path>\n<diff>\n------- SEARCH\n1.0\n=======\n1.1\n+++++++ REPLACE\n</diff>\n</replace_in_file>' },
      { text: '<attempt_completion>\n<result>Bumped the version to 1.1.</result>\n</attempt_completion>' },
    );
    const progress: string[] = [];
    const result = (await client.callTool({ name: 'run_task', arguments: { task: 'Bump the version' } }, undefined, {
      onprogress: (p) => progress.push(p.message ?? ''),
      timeout: 30_000,
    })) as CallToolResult;
    assert.notEqual(result.isError, true, textOf(result));
    assert.match(textOf(result), /^Bumped the version to 1\.1\.\n\n\(Smith task \d{8}T\d{6}-[a-z0-9]+\)$/);
    assert.equal(ws.read('version.txt'), '1.1\n');
    // Every step is sent before the result, in order. The SDK client may still drop the last note
    // when it reads it in the same chunk as the result (it handles notifications a microtask late),
    // so the list must be a non-empty prefix of the steps.
    const steps = ['replace_in_file version.txt', 'attempt_completion'];
    assert.ok(progress.length >= 1, 'no progress was reported');
    assert.deepEqual(progress, steps.slice(0, progress.length));
  });
});
