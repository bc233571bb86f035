import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** How many replays' folders are kept; each holds a whole scratch copy of a workspace. */
export const KEPT_REPLAYS = 50;

/** A replay without its comparison this long after it began has died (a crash, a kill), not still running. */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the folders of old replays in `replaysFolder`, keeping the newest `keep` (ids sort by
 * time). A folder without its comparison.json is a replay still running, unless it is a day old.
 */
export function pruneReplays(replaysFolder: string, now: number, keep = KEPT_REPLAYS): void {
  if (!existsSync(replaysFolder)) return;
  const ids = readdirSync(replaysFolder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const id of ids.slice(0, Math.max(0, ids.length - keep))) {
    const folder = join(replaysFolder, id);
    const finished = existsSync(join(folder, 'comparison.json'));
    if (finished || now - statSync(folder).mtimeMs > ABANDONED_AFTER_MS) rmSync(folder, { recursive: true, force: true });
  }
}
