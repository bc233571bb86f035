import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { restoreJournalFileOf } from './checkpoint-store.js';
import { ObjectStore } from './object-store.js';
import { type RecoveredRestore, RestoreJournal } from './restore-journal.js';

const SHOWN = 20;

/**
 * Finishes every restore a crash interrupted, in every workspace whose checkpoints live in this
 * storage folder (the journal names its workspace, so any Smith command can finish it, wherever
 * it runs). Returns what each recovery did, for the host to tell the user.
 */
export function recoverInterruptedRestores(storageDir: string): RecoveredRestore[] {
  const dir = join(storageDir, 'checkpoints');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // no checkpoints yet
  }
  const recovered: RecoveredRestore[] = [];
  for (const name of names) {
    const storeDir = join(dir, name);
    const file = restoreJournalFileOf(storeDir);
    if (!existsSync(file)) continue;
    try {
      const result = new RestoreJournal(file, new ObjectStore(join(storeDir, 'objects'))).recover();
      if (result) recovered.push(result);
    } catch (error) {
      recovered.push({
        root: '',
        finished: [],
        alreadyDone: 0,
        leftAlone: [],
        failures: [`${file}: ${error instanceof Error ? error.message : String(error)}`],
      });
    }
  }
  return recovered;
}

/** What an interrupted restore's recovery did, in words. */
export function describeRecoveredRestore(recovered: RecoveredRestore): string {
  if (recovered.damaged)
    return 'A checkpoint restore was interrupted, but its journal was damaged: nothing was finished or undone. Check the files of the workspace you were restoring.';
  const parts = [`A checkpoint restore in ${recovered.root || 'a workspace'} was interrupted (Smith stopped while restoring); it has now been finished.`];
  parts.push(
    `${count(recovered.finished.length)} restored now${listed(recovered.finished)}, ${count(recovered.alreadyDone)} already restored before it stopped.`,
  );
  if (recovered.leftAlone.length > 0)
    parts.push(`Left as they are, because they changed after the restore stopped: ${recovered.leftAlone.slice(0, SHOWN).join(', ')}.`);
  if (recovered.failures.length > 0)
    parts.push(
      `Could not be restored: ${recovered.failures.slice(0, SHOWN).join('; ')}${recovered.failures.length > SHOWN ? ` (+${recovered.failures.length - SHOWN} more)` : ''}.`,
    );
  return parts.join(' ');
}

function count(n: number): string {
  return n === 1 ? '1 file' : `${n} files`;
}

function listed(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  const more = paths.length - SHOWN;
  return ` (${paths.slice(0, SHOWN).join(', ')}${more > 0 ? ` +${more} more` : ''})`;
}
