// A checkpoint store over a fresh workspace, beside a sentinel folder outside it whose fingerprint
// must not change: after each test, the test fails if a restore (or its recovery) wrote, deleted or
// created anything outside the workspace.
import assert from 'node:assert/strict';
import { afterEach, beforeEach } from 'node:test';
import { CheckpointStore } from '../../src/core/checkpoints/checkpoint-store.js';
import { NOTHING_IGNORED } from '../../src/core/workspace/ignore-policy.js';
import { folderFingerprint } from './folder-fingerprint.js';
import { createTempWorkspace, type TempWorkspace } from './temp-workspace.js';

export interface WalledCheckpointStore {
  readonly ws: TempWorkspace;
  readonly storage: TempWorkspace;
  /** The sentinel folder outside the workspace. */
  readonly outside: TempWorkspace;
  /** A store over `ws`, as a new process would open it. */
  open(): CheckpointStore;
}

/** Registers per-test hooks (call at the top of a file or inside describe). */
export function withWalledCheckpointStore(name: string, outsideFiles: Readonly<Record<string, string>>): WalledCheckpointStore {
  let ws: TempWorkspace | undefined;
  let storage: TempWorkspace | undefined;
  let outside: TempWorkspace | undefined;
  let sentinel = '';
  beforeEach(() => {
    ws = createTempWorkspace(`smith-${name}-ws-`);
    storage = createTempWorkspace(`smith-${name}-store-`);
    outside = createTempWorkspace(`smith-${name}-outside-`);
    for (const [path, text] of Object.entries(outsideFiles)) outside.write(path, text);
    sentinel = folderFingerprint(outside.root);
  });
  afterEach(() => {
    assert.equal(folderFingerprint(outside!.root), sentinel, 'nothing outside the workspace changed');
    ws!.dispose();
    storage!.dispose();
    outside!.dispose();
  });
  return {
    get ws() {
      return ws!;
    },
    get storage() {
      return storage!;
    },
    get outside() {
      return outside!;
    },
    open: () => new CheckpointStore({ storageDir: storage!.root, workspaceRoot: ws!.root, ignore: NOTHING_IGNORED }),
  };
}
