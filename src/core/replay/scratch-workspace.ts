import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import { WORKSPACE_RULES_NAME } from '../rules/rule-sources.js';

/**
 * Writes a checkpoint's files into an empty folder: the workspace as it was then, for a replay
 * to change instead of the user's files. Only what the checkpoint kept is there (no `.git`, no
 * ignored folders such as node_modules, no files over the size limit).
 */
export function materializeCheckpoint(store: CheckpointStore, root: string, folder: string): number {
  mkdirSync(folder, { recursive: true });
  let count = 0;
  for (const [path, entry] of store.manifestOf(root)) {
    const target = join(folder, ...path.split('/'));
    mkdirSync(dirname(target), { recursive: true });
    const content = store.objects.get(entry.hash);
    if (entry.mode === 'link') symlinkSync(content.toString('utf8'), target);
    else {
      writeFileSync(target, content);
      if (entry.mode === 'exec') chmodSync(target, 0o755);
    }
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
