// The source tree as docs/architecture.md describes it: the map lists every folder of src/ and the
// engine's folders in the order the layer check enforces, and each file name means one thing.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CORE_ORDER } from '../../../scripts/check-layers.mjs';

const repoRoot = process.cwd();

describe('docs/architecture.md: the map of src/', () => {
  const doc = readFileSync(join(repoRoot, 'docs/architecture.md'), 'utf8');
  const map = doc.slice(doc.indexOf('## Layers'), doc.indexOf('## The panel'));
  const folders = (dir: string): string[] => readdirSync(join(repoRoot, dir)).filter((name) => statSync(join(repoRoot, dir, name)).isDirectory());

  test('lists the engine folders in the order the check enforces', () => {
    const listed = [...map.matchAll(/^ {2}([a-z-]+)\/ /gm)].map((m) => m[1]);
    assert.deepEqual(listed, CORE_ORDER);
    assert.deepEqual(folders('src/core').sort(), [...CORE_ORDER].sort());
  });

  test('lists every other folder of src/', () => {
    for (const top of folders('src')) {
      if (top === 'core') continue;
      const below = folders(join('src', top));
      const paths = below.length > 0 ? below.map((sub) => `src/${top}/${sub}/`) : [`src/${top}/`];
      for (const path of paths) assert.match(map, new RegExp(`^${path.replaceAll('/', '\\/')} `, 'm'), `${path} is not in the map`);
    }
  });
});

/** Names every folder may have for the same role: a folder's own types. */
const SHARED_ROLES = new Set(['types.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(repoRoot, path)).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('file names', () => {
  test('no two source files share a name, so a name means one thing wherever it is read', () => {
    const byName = new Map<string, string[]>();
    for (const path of [...sourceFiles('src'), ...sourceFiles('webview-ui/src')]) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      if (!SHARED_ROLES.has(name)) byName.set(name, [...(byName.get(name) ?? []), path]);
    }
    const repeated = [...byName.values()].filter((paths) => paths.length > 1);
    assert.deepEqual(repeated, []);
  });
});
