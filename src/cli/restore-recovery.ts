import { describeRecoveredRestore, recoverInterruptedRestores } from '../core/checkpoints/interrupted-restores.js';
import type { Style } from './style.js';

/**
 * Every command that uses the storage folder first finishes a checkpoint restore a crash
 * interrupted (in any workspace) and says what it did, on stderr.
 */
export function reportInterruptedRestores(storageDir: string, err: NodeJS.WritableStream, style: Style): void {
  for (const recovered of recoverInterruptedRestores(storageDir)) err.write(`${style.yellow(style.text(describeRecoveredRestore(recovered)))}\n`);
}
