import { ProviderError } from '../core/providers/types.js';
import { UsageError } from './usage-error.js';

/** Reports an error that ended a command as one line on stderr and sets the exit code: 2 for a usage error, else 1. */
export function reportCliFailure(error: unknown): void {
  if (error instanceof UsageError) {
    process.stderr.write(`smith: ${error.message}\nRun smith --help for usage.\n`);
    process.exitCode = 2;
  } else if (error instanceof ProviderError) {
    process.stderr.write(`smith: ${error.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`smith: ${(error as Error).message}\n`);
    if (process.env.SMITH_DEBUG) process.stderr.write(`${(error as Error).stack}\n`);
    process.exitCode = 1;
  }
}
