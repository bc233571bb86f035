// A hostile checkout links its rules, commands, modes, settings and MCP config to files outside
// it: a secret in the user's home, a folder elsewhere, /proc/self/environ, /, /usr/share. Every
// loader of workspace-shipped files must leave those unread (the secret's token appears nowhere in
// what it returns) and say which entry it skipped; links that stay inside still work, and one bad
// entry never costs the good ones beside it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { loadCustomCommands } from '../../../src/core/commands/custom-commands.js';
import { readMcpConfigFile } from '../../../src/core/mcp/mcp-config.js';
import { loadPermissionSettings } from '../../../src/core/permissions/settings-files.js';
import { loadRules } from '../../../src/core/rules/rules-loader.js';
import { loadModes } from '../../../src/core/modes/mode-loader.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let ws: TempWorkspace;
let home: string;
let storage: string;
let token: string;
beforeEach(() => {
  ws = createTempWorkspace('smith-contained-');
  home = mkdtempSync(join(tmpdir(), 'smith-home-'));
  storage = mkdtempSync(join(tmpdir(), 'smith-storage-'));
  token = `SECRET-${randomUUID()}`;
});
afterEach(() => {
  ws.dispose();
  rmSync(home, { recursive: true, force: true });
  rmSync(storage, { recursive: true, force: true });
});

/** What a loader returned (everything that could reach the model or a list) and its notes. */
interface Loaded {
  readonly output: string;
  readonly notes: string;
}

/** One loader of workspace-shipped files, and where a repository puts its entries. */
interface LoaderCase {
  readonly name: string;
  /** A file entry (workspace-relative) that may be a link. */
  readonly file: string;
  /** The name the loader reads inside `folder` (default: the last part of `file`). */
  readonly inFolder?: string;
  /** True when `file` is read as one file (not found by listing a folder). */
  readonly single?: boolean;
  /** A folder entry holding `file`, which may be a link to a folder. */
  readonly folder: string;
  /** What the file holds so that the loader would use it, carrying the marker. */
  content(marker: string): string;
  /** A second, good entry beside the bad one (folder loaders only). */
  readonly good?: string;
  load(): Loaded;
}

const LOADERS: readonly LoaderCase[] = [
  {
    name: 'rules (.cursor/rules)',
    file: '.cursor/rules/leak.md',
    folder: '.cursor/rules',
    content: (marker) => `Always say ${marker}.`,
    good: '.cursor/rules/good.md',
    load: () => {
      const rules = loadRules({ workspaceRoot: ws.root, homeDir: home, globalRulesDir: join(storage, 'rules') });
      return {
        output: JSON.stringify({ section: rules.section, sources: rules.sources }),
        notes: `${rules.notes.join('\n')}\n${rules.rules.map((r) => `${r.label} ${r.note ?? ''}`).join('\n')}`,
      };
    },
  },
  {
    name: 'rules (.roo/rules)',
    file: '.roo/rules/leak.md',
    folder: '.roo/rules',
    content: (marker) => `Always say ${marker}.`,
    good: '.roo/rules/good.md',
    load: () => {
      const rules = loadRules({ workspaceRoot: ws.root, homeDir: home });
      return { output: JSON.stringify({ section: rules.section, sources: rules.sources }), notes: rules.notes.join('\n') };
    },
  },
  {
    name: 'rules (AGENTS.md)',
    file: 'AGENTS.md',
    folder: '.smithrules',
    inFolder: 'leak.md',
    single: true,
    content: (marker) => `Always say ${marker}.`,
    load: () => {
      const rules = loadRules({ workspaceRoot: ws.root, homeDir: home });
      return { output: JSON.stringify({ section: rules.section, sources: rules.sources }), notes: rules.notes.join('\n') };
    },
  },
  {
    name: 'command files (.claude/commands)',
    file: '.claude/commands/leak.md',
    folder: '.claude/commands',
    content: (marker) => `---\ndescription: ${marker}\n---\nSend ${marker}.`,
    good: '.claude/commands/good.md',
    load: () => {
      const { commands, problems } = loadCustomCommands({ workspaceRoot: ws.root, homeDir: home, userCommandsDir: join(storage, 'commands') });
      return { output: JSON.stringify(commands), notes: problems.join('\n') };
    },
  },
  {
    name: 'command files (.smith/commands)',
    file: '.smith/commands/leak.md',
    folder: '.smith/commands',
    content: (marker) => `Send ${marker}.`,
    good: '.smith/commands/good.md',
    load: () => {
      const { commands, problems } = loadCustomCommands({ workspaceRoot: ws.root, homeDir: home });
      return { output: JSON.stringify(commands), notes: problems.join('\n') };
    },
  },
  {
    name: 'modes (.smith/modes)',
    file: '.smith/modes/leak.yaml',
    folder: '.smith/modes',
    content: (marker) => `slug: leak-${marker.length}\nname: ${marker}\nroleDefinition: ${marker}\ngroups: [read]\n`,
    good: '.smith/modes/good.yaml',
    load: () => {
      const catalog = loadModes({ workspaceRoot: ws.root, storageDir: storage });
      return { output: JSON.stringify(catalog.modes), notes: catalog.errors.join('\n') };
    },
  },
  {
    name: 'settings (.smith/settings.json)',
    file: '.smith/settings.json',
    folder: '.smith',
    single: true,
    content: (marker) =>
      JSON.stringify({ permissions: { deny: [`Bash(${marker})`] }, hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `echo ${marker}` }] }] } }),
    load: () => {
      const settings = loadPermissionSettings({ storageDir: storage, workspaceRoot: ws.root, trust: () => 'trusted' });
      return { output: JSON.stringify({ rules: settings.rules, hooks: settings.hooks }), notes: settings.problems.join('\n') };
    },
  },
  {
    name: 'MCP config (.smith/mcp.json)',
    file: '.smith/mcp.json',
    folder: '.smith',
    single: true,
    content: (marker) => JSON.stringify({ mcpServers: { [marker]: { command: 'echo', args: [marker] } } }),
    load: () => {
      const file = readMcpConfigFile({ path: join(ws.root, '.smith', 'mcp.json'), scope: 'workspace', baseDir: ws.root });
      return { output: JSON.stringify(file.ok ? [...file.entries] : []), notes: file.ok ? '' : `${file.problem.file}: ${file.problem.message}` };
    },
  },
];

/** Makes `rel` in the workspace a link to `target`. */
function link(rel: string, target: string): void {
  const path = join(ws.root, rel);
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path);
}

/** A file outside the workspace holding the loader's content with the token. */
function secretFile(loader: LoaderCase, rel = '.ssh/id_rsa'): string {
  const path = join(home, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, loader.content(token));
  return path;
}

/** The name an entry has in notes: relative to the workspace, or its last part. */
function named(rel: string): RegExp {
  return new RegExp(rel.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

function assertSkipped(loader: LoaderCase, loaded: Loaded, entry: string, reason: RegExp): void {
  assert.doesNotMatch(loaded.output, new RegExp(token), `${loader.name}: the token reached the output`);
  assert.match(loaded.notes, named(entry), `${loader.name}: no note names ${entry}:\n${loaded.notes}`);
  assert.match(loaded.notes, reason, `${loader.name}: the note does not say why:\n${loaded.notes}`);
}

describe('loaders of workspace-shipped files read only inside the workspace', () => {
  for (const loader of LOADERS) {
    describe(loader.name, () => {
      test('a file linked to a secret in the home folder is skipped with a note', () => {
        link(loader.file, secretFile(loader));
        assertSkipped(loader, loader.load(), loader.file, /links outside the workspace/);
      });

      test('a link chain that ends outside is skipped, however it is spelled', () => {
        const secret = secretFile(loader);
        link('chain/one', secret);
        link('chain/two', '../chain/./one');
        link(loader.file, join(ws.root, 'chain', '..', 'chain', 'two'));
        assertSkipped(loader, loader.load(), loader.file, /links outside the workspace/);
      });

      test('a folder linked outside is not listed or read', () => {
        const outside = join(home, 'elsewhere');
        mkdirSync(outside, { recursive: true });
        writeFileSync(join(outside, loader.inFolder ?? basename(loader.file)), loader.content(token));
        link(loader.folder, outside);
        assertSkipped(loader, loader.load(), loader.folder, /links outside the workspace/);
      });

      test('links to /proc/self/environ, / and /dev/zero are skipped with notes', { timeout: 60_000 }, () => {
        link(loader.file, '/proc/self/environ');
        const loaded = loader.load();
        assert.doesNotMatch(loaded.output, /PATH=/);
        assertSkipped(loader, loaded, loader.file, /links outside the workspace/);
        rmSync(join(ws.root, loader.file));
        link(loader.file, '/');
        assertSkipped(loader, loader.load(), loader.file, /links outside the workspace/);
        rmSync(join(ws.root, loader.file));
        link(loader.file, '/dev/zero');
        assertSkipped(loader, loader.load(), loader.file, /links outside the workspace/);
      });

      test('a folder linked to / or /usr/share is not walked', { timeout: 60_000 }, () => {
        link(loader.folder, '/');
        assertSkipped(loader, loader.load(), loader.folder, /links outside the workspace/);
        rmSync(join(ws.root, loader.folder));
        link(loader.folder, '/usr/share');
        assertSkipped(loader, loader.load(), loader.folder, /links outside the workspace/);
      });

      test('a link that stays inside the workspace, even through .., is read', () => {
        ws.write('shared/kept.txt', loader.content('KEPT-MARKER'));
        const up = relative(dirname(join(ws.root, loader.file)), ws.root);
        link(loader.file, join(up, 'shared', '..', 'shared', 'kept.txt').replace(/^shared/, './shared'));
        const loaded = loader.load();
        assert.match(loaded.output, /KEPT-MARKER/, `${loader.name}: ${loaded.notes}`);
      });

      test('a dangling link and a link loop are noted, and do not fail the loader', () => {
        link(loader.file, join(ws.root, 'nothing-here'));
        assertSkipped(loader, loader.load(), loader.file, /a link to nothing/);
        rmSync(join(ws.root, loader.file));
        link('loop-a', join(ws.root, 'loop-b'));
        link('loop-b', join(ws.root, 'loop-a'));
        link(loader.file, join(ws.root, 'loop-a'));
        assertSkipped(loader, loader.load(), loader.file, /a link loop/);
      });

      test('a folder where a file is expected, and a file of 100 MB, are noted, not read', { timeout: 120_000 }, () => {
        mkdirSync(join(ws.root, loader.file), { recursive: true });
        writeFileSync(join(ws.root, loader.file, 'inner.bin'), loader.content(token));
        const asFolder = loader.load();
        assert.doesNotMatch(asFolder.output, new RegExp(token));
        if (loader.single) assertSkipped(loader, asFolder, loader.file, /a folder, not a file/);
        rmSync(join(ws.root, loader.file), { recursive: true });
        // Sparse: 100 MB long, the token at the start and at the end.
        const big = ws.write(loader.file, loader.content(token));
        truncateSync(big, 100 * 1024 * 1024);
        const loaded = loader.load();
        assert.match(loaded.notes, named(loader.file));
        assert.match(loaded.notes, /larger than \d+ (KiB|MiB)/);
      });

      if (loader.good) {
        test('one bad entry beside good ones still loads the good ones', { timeout: 60_000 }, () => {
          ws.write(loader.good!, loader.content('GOOD-MARKER'));
          link(loader.file, secretFile(loader));
          const dir = join(ws.root, loader.folder);
          link(`${loader.folder}/dangling.md`, join(dir, 'missing.md'));
          mkdirSync(join(dir, 'folder.md'));
          writeFileSync(join(dir, 'invalid.md'), Buffer.from([0x66, 0xff, 0xfe, 0x0a]));
          // No writer: a loader that opened it for a blocking read would hang here.
          execFileSync('mkfifo', [join(dir, `pipe${extname(loader.file)}`)]);
          const loaded = loader.load();
          assert.match(loaded.output, /GOOD-MARKER/);
          assertSkipped(loader, loaded, loader.file, /links outside the workspace/);
          assert.match(loaded.notes, /pipe\.\w+(:| could not be read:) not a regular file/);
        });

        test('a folder of 10,000 entries is read only up to its cap, without failing', { timeout: 120_000 }, () => {
          const dir = join(ws.root, loader.folder);
          mkdirSync(dir, { recursive: true });
          for (let i = 0; i < 10_000; i++) writeFileSync(join(dir, `f${i}${extname(loader.file)}`), loader.content(`M${i}`));
          const loaded = loader.load();
          assert.match(loaded.notes, /more than 1000 entries/);
          assert.ok((loaded.output.match(/M\d+/g) ?? []).length > 0);
        });
      }
    });
  }
});
