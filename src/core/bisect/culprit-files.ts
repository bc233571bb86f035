// The files a culprit changed, each with its content at the last passing and the first failing
// checkpoint, for a side-by-side diff (the panel's "Show diff").
import { join } from 'node:path';
import { inspectCheckpointStore } from '../checkpoints/checkpoint-gc.js';
import { listCheckpoints } from '../checkpoints/rewind-task.js';
import { changedPaths } from '../checkpoints/workspace-snapshot.js';
import { decodeText } from '../tool-kit/file-text.js';
import { BisectError, readBisectSource } from './bisect-steps.js';
import type { BisectReport } from './run-bisect.js';

/** A file that differs between the two checkpoints; each side read when shown (undefined: the file did not exist then). */
export interface CulpritFile {
  /** As the task names it (another folder's files `<name>/…`). */
  readonly path: string;
  /** Where it is in the workspace. */
  readonly absolutePath: string;
  readonly before: () => string | undefined;
  readonly after: () => string | undefined;
}

/** Every file that differs between the report's last passing and first failing checkpoint, in every folder. */
export function culpritFiles(storageDir: string, report: Pick<BisectReport, 'taskId' | 'culprit'>): CulpritFile[] {
  const culprit = report.culprit;
  if (!culprit) return [];
  const source = readBisectSource(storageDir, report.taskId);
  const checkpoints = listCheckpoints(source.events);
  const good = checkpoints.find((c) => c.id === culprit.lastPassing);
  const bad = checkpoints.find((c) => c.id === culprit.firstFailing);
  if (!good || !bad) throw new BisectError(`task ${report.taskId} no longer has checkpoints ${culprit.lastPassing} and ${culprit.firstFailing}`);
  const folders = [
    { path: source.cwd, prefix: '', before: good.root, after: bad.root },
    ...(bad.folders ?? []).flatMap((folder) => {
      const then = good.folders?.find((f) => f.path === folder.path);
      return then ? [{ path: folder.path, prefix: `${folder.name}/`, before: then.root, after: folder.root }] : [];
    }),
  ];
  return folders.flatMap((folder) => {
    const store = inspectCheckpointStore(storageDir, folder.path);
    if (!store) throw new BisectError(`the checkpoint storage of ${folder.path} was removed`);
    const before = store.manifestOf(folder.before);
    const after = store.manifestOf(folder.after);
    const text = (hash: string | undefined) => {
      if (hash === undefined) return undefined;
      const decoded = decodeText(store.objects.get(hash));
      return 'binary' in decoded ? '(a binary file)' : decoded.text;
    };
    return changedPaths(before, after)
      .sort()
      .map((path) => ({
        path: folder.prefix + path,
        absolutePath: join(folder.path, path),
        before: () => text(before.get(path)?.hash),
        after: () => text(after.get(path)?.hash),
      }));
  });
}
