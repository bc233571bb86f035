// The layering check on small trees of its own: an import from a lower core folder to a higher one
// fails however it is written, a downward one passes, and a folder the order does not place fails.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { CORE_ORDER, layerProblems } from '../../../scripts/check-layers.mjs';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

describe('check-layers: the order of the core folders', () => {
  let tree: TempWorkspace;
  beforeEach(() => {
    tree = createTempWorkspace('smith-layers-');
    tree.write('src/core/ports.ts', 'export interface Host {}\n');
    tree.write('src/core/log/events.ts', "import type { Host } from '../ports.js';\nexport type TaskEvent = { host?: Host };\n");
    tree.write('src/core/tools/read-file.ts', "import type { TaskEvent } from '../log/events.js';\nexport const x: TaskEvent[] = [];\n");
    tree.write('src/shared/facts.ts', 'export const FACT = 1;\n');
  });
  afterEach(() => tree.dispose());

  test('a tree whose arrows all point down passes', () => {
    tree.write('src/core/log/facts.ts', "import { FACT } from '../../shared/facts.js';\nimport './events.js';\nexport const y = FACT;\n");
    assert.deepEqual(layerProblems(tree.root), []);
  });

  for (const [how, line] of [
    ['an import', "import { x } from '../tools/read-file.js';"],
    ['a type-only import', "import type { x } from '../tools/read-file.js';"],
    ['a re-export', "export * from '../tools/read-file.js';"],
    ['a dynamic import', "const m = import('../tools/read-file.js');"],
    ['a side-effect import', "import '../tools/read-file.js';"],
    ['a path through another folder', "import { x } from '../../core/log/../tools/read-file.js';"],
    ['a path that leaves core and comes back', "import { x } from '../../core/tools/read-file.js';"],
  ] as const) {
    test(`${how} from a lower folder to a higher one fails`, () => {
      tree.write('src/core/log/upward.ts', `${line}\n`);
      const problems = layerProblems(tree.root);
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0] ?? '', /^src\/core\/log\/upward\.ts: .*core\/tools is above core\/log/);
    });
  }

  test('a file directly in src/core may not import a folder', () => {
    tree.write('src/core/ports.ts', "import type { TaskEvent } from './log/events.js';\nexport type Host = { e?: TaskEvent };\n");
    const problems = layerProblems(tree.root);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0] ?? '', /^src\/core\/ports\.ts: .*core\/log is above core\/\(root\)/);
  });

  test('a folder the order does not place fails, even with no imports', () => {
    tree.write('src/core/gadgets/gadget.ts', 'export const g = 1;\n');
    assert.deepEqual(layerProblems(tree.root), ['src/core/gadgets/: a folder CORE_ORDER in scripts/check-layers.mjs does not place']);
  });

  test('the order names each folder once, and the tool kit, the log and the task in that order', () => {
    assert.equal(new Set(CORE_ORDER).size, CORE_ORDER.length);
    assert.ok(CORE_ORDER.indexOf('log') < CORE_ORDER.indexOf('tool-kit'));
    assert.ok(CORE_ORDER.indexOf('tool-kit') < CORE_ORDER.indexOf('tools'));
    assert.ok(CORE_ORDER.indexOf('tools') < CORE_ORDER.indexOf('task'));
  });
});

describe('check-layers: zod comes from src/shared/zod-config.ts', () => {
  let tree: TempWorkspace;
  beforeEach(() => {
    tree = createTempWorkspace('smith-layers-zod-');
    tree.write('src/shared/zod-config.ts', "import { en } from 'zod/locales';\nimport * as z from 'zod/mini';\nz.config(en());\nexport * from 'zod/mini';\n");
    tree.write('src/shared/schema.ts', "import * as z from './zod-config.js';\nexport const s = z.string();\n");
    tree.write('src/core/mcp/config.ts', "import * as z from '../../shared/zod-config.js';\nexport const c = z.object({});\n");
  });
  afterEach(() => tree.dispose());

  test('schemas importing zod through zod-config.ts pass', () => {
    assert.deepEqual(layerProblems(tree.root), []);
  });

  for (const [file, line] of [
    ['src/shared/classic.ts', "import { z } from 'zod';"],
    ['src/cli/classic-v4.ts', "import * as z from 'zod/v4';"],
    ['src/core/mcp/mini.ts', "import { z } from 'zod/mini';"],
    ['src/core/mcp/mini-type.ts', "import type { ZodMiniType } from 'zod/mini';"],
    ['src/panel/required.ts', "const z = require('zod');"],
    ['webview-ui/src/lazy.ts', "const z = import('zod/v3');"],
  ] as const) {
    test(`${line} anywhere else fails`, () => {
      tree.write(file, `${line}\n`);
      const problems = layerProblems(tree.root);
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0] ?? '', new RegExp(`^${file.replace(/[.]/g, '\\.')}: imports 'zod.*zod-config\\.js`));
    });
  }

  test('a package merely named like zod is not zod', () => {
    tree.write('src/shared/other.ts', "import { x } from 'zodiac';\nexport const y = x;\n");
    assert.deepEqual(layerProblems(tree.root), []);
  });
});
