// The order a scan writes folder listings in while files are still being statted: a folder only
// once all its files and all below it are done, always after its subfolders, each exactly once,
// whichever way the done prefix and suffix grow.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AssemblyOrder, type OrderedFolder } from '../../../src/core/checkpoints/assembly-order.js';

interface Tree {
  readonly files: number;
  readonly children: readonly Tree[];
}

/** Folders as the walk records them: indexed when found (a parent's children when it is read), read depth first from a stack. */
function walk(root: Tree): { folders: OrderedFolder[]; parent: number[]; total: number } {
  const folders: OrderedFolder[] = [];
  const parent: number[] = [-1];
  const trees: Tree[] = [root];
  const stack = [0];
  let pushed = 0;
  let read = 0;
  for (let index = stack.pop(); index !== undefined; index = stack.pop()) {
    const tree = trees[index] as Tree;
    const children = new Map<string, number>();
    for (const child of tree.children) {
      const childIndex = trees.length;
      trees.push(child);
      parent.push(index);
      children.set(`d${childIndex}`, childIndex);
      stack.push(childIndex);
    }
    folders[index] = { first: pushed, names: Array.from({ length: tree.files }, (_, i) => `f${i}`), folders: children, read: read++ };
    pushed += tree.files;
  }
  return { folders, parent, total: pushed };
}

/** A random tree of folders, some empty. */
function randomTree(random: () => number, depth: number): Tree {
  const count = depth === 0 ? 0 : Math.floor(random() * 4);
  return { files: Math.floor(random() * 5), children: Array.from({ length: count }, () => randomTree(random, depth - 1)) };
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('checkpoint assembly order', () => {
  test('random trees, random progress from both ends: each folder once, after its subfolders, only when every file below it is done', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = seeded(seed);
      const { folders, parent, total } = walk(randomTree(random, 5));
      const order = new AssemblyOrder(folders);
      const given: number[] = [];
      let prefixEnd = 0;
      let suffixStart = total;
      const doneBelow = (i: number): boolean => {
        const folder = folders[i] as OrderedFolder;
        for (let f = folder.first; f < folder.first + folder.names.length; f++) if (f >= prefixEnd && f < suffixStart) return false;
        return [...folder.folders.values()].every(doneBelow);
      };
      for (;;) {
        for (const i of order.ready(prefixEnd, suffixStart)) {
          assert.ok(doneBelow(i), `seed ${seed}: folder ${i} given before all below it was done`);
          for (const child of (folders[i] as OrderedFolder).folders.values())
            assert.ok(given.includes(child), `seed ${seed}: folder ${i} given before its subfolder ${child}`);
          given.push(i);
        }
        if (prefixEnd >= suffixStart) break;
        // Either end moves by a random step, as helpers and the main thread do.
        const step = 1 + Math.floor(random() * 4);
        if (random() < 0.5) prefixEnd = Math.min(suffixStart, prefixEnd + step);
        else suffixStart = Math.max(prefixEnd, suffixStart - step);
      }
      assert.equal(new Set(given).size, given.length, `seed ${seed}: a folder given twice`);
      assert.equal(given.length, folders.length, `seed ${seed}: not every folder given`);
      assert.equal(given.at(-1), 0, `seed ${seed}: the root is not last`);
      assert.ok(parent.length === folders.length);
    }
  });

  test('nothing is ready before its files are done, and folders without files below them are ready at once', () => {
    const { folders, total } = walk({
      files: 2,
      children: [
        { files: 0, children: [] },
        { files: 3, children: [] },
      ],
    });
    const order = new AssemblyOrder(folders);
    const first = [...order.ready(0, total)];
    assert.ok(first.every((i) => (folders[i] as OrderedFolder).names.length === 0 && (folders[i] as OrderedFolder).folders.size === 0));
    assert.ok(!first.includes(0));
    assert.deepEqual([...order.ready(total, total)].sort(), [0, 1, 2].filter((i) => !first.includes(i)).sort());
  });
});
