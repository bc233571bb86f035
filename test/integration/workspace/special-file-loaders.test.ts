// Files a workspace supplies to Smith itself — rules, ignore files, MCP and mode configs, source
// files to outline — may be FIFOs in a hostile checkout. Each loader must refuse them without
// opening them for a blocking read. Each FIFO has a writer process that would hand a reader
// recognisable content, so a loader that did read the pipe is caught by what it returns instead of
// hanging the test.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { readMcpConfigFile } from '../../../src/core/mcp/mcp-config.js';
import { loadRules } from '../../../src/core/rules/rules-loader.js';
import { loadModes } from '../../../src/core/modes/mode-loader.js';
import { listCodeDefinitionNamesTool } from '../../../src/core/tools/list-code-definition-names.js';
import { ancestorIgnoreRules } from '../../../src/core/workspace/file-listing.js';
import { NodeFileSystem } from '../../../src/core/workspace/node-file-system.js';
import { loadSmithIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

describe('loaders of workspace files on FIFOs', () => {
  let ws: TempWorkspace;
  let writers: ChildProcess[];
  beforeEach(() => {
    ws = createTempWorkspace();
    writers = [];
  });
  afterEach(() => {
    for (const writer of writers) writer.kill('SIGKILL');
    ws.dispose();
  });

  /** A FIFO at `rel` whose writer gives `content` to whoever opens it for reading. */
  function fifo(rel: string, content: string): string {
    const path = ws.write(rel, '');
    execFileSync('rm', [path]);
    execFileSync('mkfifo', [path]);
    writers.push(spawn('sh', ['-c', 'printf %s "$1" > "$2"', 'sh', content, path], { stdio: 'ignore' }));
    return path;
  }

  test('rules files that are FIFOs are skipped', { timeout: 60_000 }, () => {
    fifo('AGENTS.md', 'INJECTED AGENTS RULE');
    fifo('.smithrules/style.md', 'INJECTED FOLDER RULE');
    const rules = loadRules({ workspaceRoot: ws.root });
    assert.doesNotMatch(rules.section, /INJECTED/);
    assert.deepEqual(rules.sources, []);
  });

  test('a mode file that is a FIFO is reported, not read', { timeout: 60_000 }, () => {
    fifo('.smith/modes/evil.yaml', 'slug: evil\nname: Evil\nroleDefinition: injected\ngroups: [read]\n');
    const catalog = loadModes({ workspaceRoot: ws.root });
    assert.equal(
      catalog.modes.some((mode) => mode.slug === 'evil'),
      false,
    );
    assert.match(catalog.errors.join('\n'), /evil\.yaml could not be read: .*not a regular file/);
  });

  test('an MCP config that is a FIFO is a problem of that file', { timeout: 60_000 }, () => {
    const path = fifo('.smith/mcp.json', '{"mcpServers":{"evil":{"command":"touch","args":["pwned"]}}}');
    const file = readMcpConfigFile({ path, scope: 'workspace', baseDir: ws.root });
    assert.equal(file.ok, false);
    assert.match(file.ok ? '' : file.problem.message, /not a regular file/);
  });

  test('ignore files that are FIFOs hold no rules', { timeout: 60_000 }, async () => {
    fifo('.smithignore', 'secret.txt\n');
    fifo('.gitignore', 'build/\n');
    const policy = await loadSmithIgnore(ws.root);
    assert.equal(policy.isIgnored(join(ws.root, 'secret.txt')), false);
    const rules = await ancestorIgnoreRules(ws.root, ws.root);
    assert.doesNotMatch(rules.map((set) => set.text).join('\n'), /build/);
  });

  test('list_code_definition_names skips a source file that is a FIFO', { timeout: 60_000 }, async () => {
    ws.write('src/real.ts', 'export class Real {}\n');
    fifo('src/pipe.ts', 'export class Injected {}\n');
    const outcome = await new ToolHarness(ws.root).run(listCodeDefinitionNamesTool, { path: 'src' });
    assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
    const output = outcome.kind === 'result' ? outcome.output : '';
    assert.match(output, /class Real/);
    assert.doesNotMatch(output, /Injected/);
  });

  test("the host file system's readFile refuses a FIFO", { timeout: 60_000 }, async () => {
    const path = fifo('data.pipe', 'piped bytes');
    await assert.rejects(new NodeFileSystem().readFile(path), /not a regular file/);
  });
});
