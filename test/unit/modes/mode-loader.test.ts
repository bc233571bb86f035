import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { WorkspaceTrustCheck } from '../../../src/core/mcp/workspace-trust.js';
import { loadModes } from '../../../src/core/modes/mode-loader.js';
import { rooGlobalModesFile } from '../../../src/core/modes/mode-locations.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

const mode = (slug: string, role: string) => `  - slug: ${slug}\n    name: ${slug}\n    roleDefinition: ${role}\n    groups: [read]\n`;
const list = (...entries: string[]) => `customModes:\n${entries.join('')}`;

describe('where modes come from, and which wins', () => {
  let ws: TempWorkspace;
  let home: TempWorkspace;
  let storage: TempWorkspace;
  beforeEach(() => {
    ws = createTempWorkspace();
    home = createTempWorkspace('smith-home-');
    storage = createTempWorkspace('smith-storage-');
  });
  afterEach(() => {
    for (const dir of [ws, home, storage]) dir.dispose();
  });
  const rooGlobal = () => rooGlobalModesFile(home.root, process.platform, {}).slice(home.root.length + 1);
  const roleOf = (catalog: ReturnType<typeof loadModes>, slug: string) => catalog.modes.find((m) => m.slug === slug)?.roleDefinition;

  test("project over global over built-in: .smith/modes, .roomodes, Smith's storage, Roo Code's global file", () => {
    home.write(rooGlobal(), list(mode('a', 'roo-global'), mode('b', 'roo-global'), mode('c', 'roo-global'), mode('d', 'roo-global'), mode('code', 'roo-code')));
    storage.write('custom_modes.yaml', list(mode('b', 'storage-yaml'), mode('c', 'storage-yaml'), mode('d', 'storage-yaml')));
    storage.write('modes/c.yaml', 'slug: c\nname: c\nroleDefinition: storage-modes\ngroups: [read]\n');
    ws.write('.roomodes', JSON.stringify({ customModes: [{ slug: 'd', name: 'd', roleDefinition: 'roomodes', groups: ['read'] }] }));
    ws.write('.smith/modes/e.yaml', 'slug: e\nname: e\nroleDefinition: smith-modes\ngroups: [read]\n');
    const catalog = loadModes({ workspaceRoot: ws.root, storageDir: storage.root, homeDir: home.root });
    assert.deepEqual(catalog.errors, []);
    assert.equal(roleOf(catalog, 'a'), 'roo-global');
    assert.equal(roleOf(catalog, 'b'), 'storage-yaml');
    assert.equal(roleOf(catalog, 'c'), 'storage-modes');
    assert.equal(roleOf(catalog, 'd'), 'roomodes');
    assert.equal(roleOf(catalog, 'e'), 'smith-modes');
    assert.equal(roleOf(catalog, 'code'), 'roo-code', 'a custom mode replaces the built-in one of its slug, as in Roo Code');
    assert.equal(catalog.modes.find((m) => m.slug === 'd')?.source, join(ws.root, '.roomodes'));
  });

  test("every workspace folder's .roomodes is read; the primary folder's wins", () => {
    const other = createTempWorkspace('smith-other-');
    try {
      other.write('.roomodes', list(mode('shared', 'other'), mode('only-other', 'other')));
      ws.write('.roomodes', list(mode('shared', 'primary')));
      const catalog = loadModes({ workspaceRoot: ws.root, otherRoots: [other.root], homeDir: home.root });
      assert.equal(roleOf(catalog, 'shared'), 'primary');
      assert.equal(roleOf(catalog, 'only-other'), 'other');
    } finally {
      other.dispose();
    }
  });

  test('a broken .roomodes is reported and the other files still load; nothing is written', () => {
    ws.write('.roomodes', 'customModes:\n  - slug: [oops\n');
    ws.write('.smith/modes/ok.yaml', 'slug: ok\nname: OK\nroleDefinition: fine\ngroups: [read]\n');
    const catalog = loadModes({ workspaceRoot: ws.root, homeDir: home.root });
    assert.equal(roleOf(catalog, 'ok'), 'fine');
    assert.match(catalog.errors.join('\n'), /Mode file \.roomodes could not be read/);
    assert.equal(ws.read('.roomodes'), 'customModes:\n  - slug: [oops\n');
  });

  test('a .roomodes that links out of the workspace is not read, and says so', () => {
    const outside = mkdtempSync(join(tmpdir(), 'smith-outside-'));
    try {
      const secret = join(outside, 'modes.yaml');
      writeFileSync(secret, list(mode('leak', 'SECRET-ROLE')));
      symlinkSync(secret, join(ws.root, '.roomodes'));
      const catalog = loadModes({ workspaceRoot: ws.root, homeDir: home.root });
      assert.equal(roleOf(catalog, 'leak'), undefined);
      assert.match(catalog.errors.join('\n'), /\.roomodes could not be read: links outside the workspace/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test("untrusted: the workspace's .roomodes and .smith/modes are held back, the user's own modes still load", () => {
    ws.write('.roomodes', list(mode('proj', 'project')));
    ws.write('.smith/modes/s.yaml', 'slug: s\nname: s\nroleDefinition: smith\ngroups: [read]\n');
    storage.write('custom_modes.yaml', list(mode('mine', 'mine'), mode('proj', 'global')));
    const seen: string[] = [];
    const untrusted: WorkspaceTrustCheck = (key, fingerprint) => {
      seen.push(`${key} ${fingerprint}`);
      return 'unknown';
    };
    const catalog = loadModes({ workspaceRoot: ws.root, storageDir: storage.root, homeDir: home.root, trust: untrusted });
    assert.equal(roleOf(catalog, 'mine'), 'mine');
    assert.equal(roleOf(catalog, 'proj'), 'global', 'the global mode stands while the project one is held back');
    assert.equal(roleOf(catalog, 's'), undefined);
    assert.deepEqual(catalog.heldBack?.files, [join(ws.root, '.roomodes'), join(ws.root, '.smith/modes/s.yaml')]);
    assert.equal(catalog.heldBack?.trustKey, `${ws.root}#modes`);
    // Trusted for exactly these files: the project mode is used; a changed file asks again.
    const fingerprint = catalog.heldBack!.fingerprint;
    const trusted: WorkspaceTrustCheck = (_key, print) => (print === fingerprint ? 'trusted' : 'unknown');
    assert.equal(roleOf(loadModes({ workspaceRoot: ws.root, storageDir: storage.root, homeDir: home.root, trust: trusted }), 'proj'), 'project');
    ws.write('.roomodes', list(mode('proj', 'changed')));
    const changed = loadModes({ workspaceRoot: ws.root, storageDir: storage.root, homeDir: home.root, trust: trusted });
    assert.equal(roleOf(changed, 'proj'), 'global');
    assert.ok(changed.heldBack);
    // A denied workspace is not asked again and stays held back.
    assert.equal(loadModes({ workspaceRoot: ws.root, homeDir: home.root, trust: () => 'denied' }).heldBack?.decision, 'denied');
  });

  test("Roo Code's global file is where its VS Code storage keeps it on each system", () => {
    assert.equal(rooGlobalModesFile('/home/u', 'linux', {}), '/home/u/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/custom_modes.yaml');
    assert.equal(
      rooGlobalModesFile('/home/u', 'linux', { XDG_CONFIG_HOME: '/cfg' }),
      '/cfg/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/custom_modes.yaml',
    );
    assert.equal(
      rooGlobalModesFile('/Users/u', 'darwin', {}),
      '/Users/u/Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/custom_modes.yaml',
    );
  });
});
