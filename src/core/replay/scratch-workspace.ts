import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import { writeFileAt } from '../checkpoints/link-safe-files.js';
import { assertRestorable } from '../checkpoints/restore-journal.js';
import { WORKSPACE_RULES_NAME } from '../rules/rule-sources.js';

/**
 * Writes a checkpoint's files into an empty folder: the workspace as it was then, for a replay
 * to change instead of the user's files. Only what the checkpoint kept is there (no `.git`, no
 * ignored folders such as node_modules, no files over the size limit). Written as a restore
 * writes: a path from a tampered store (`..`, absolute) is refused, and nothing is written
 * through a link.
 */
export function materializeCheckpoint(store: CheckpointStore, root: string, folder: string): number {
  mkdirSync(folder, { recursive: true });
  let count = 0;
  const manifest = store.manifestOf(root);
  for (const path of manifest.keys()) assertRestorable(path);
  for (const [path, entry] of manifest) {
    writeFileAt(folder, path, store.objects.get(entry.hash), entry.mode);
    count++;
  }
  return count;
}

/** Puts a rules file in place of the workspace's own Smith rules (`.smithrules`, a file or a folder). */
export function replaceWorkspaceRules(folder: string, rules: string): void {
  const target = join(folder, WORKSPACE_RULES_NAME);
  rmSync(target, { recursive: true, force: true });
  writeFileSync(target, rules);
}
