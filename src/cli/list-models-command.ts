// `smith --list-models`: bundled on its own as dist/list-models-command.js (see esbuild.mjs) and loaded
// by main.ts instead of the whole CLI, so listing costs little more than Node's own start-up.
import { loadFetchedCatalog } from '../core/providers/model-catalog-updates.js';
import { ModelFactsCache } from '../core/providers/model-facts-cache.js';
import { parseCliArgs } from './args.js';
import type { CliOptions } from './cli-options.js';
import { cliRedactor } from './cli-secrets.js';
import { reportCliFailure } from './cli-failure.js';
import { defaultStorageDir } from './default-storage.js';
import { printModels } from './model-list-printer.js';
import { providerConfigFrom } from './provider-settings.js';
import { reportInterruptedRestores } from './restore-recovery.js';
import { createStyle } from './style.js';

/** Prints the models of the provider the options name; the exit code. */
export function listModels(options: CliOptions): Promise<number> {
  const storageDir = options.storage ?? defaultStorageDir();
  reportInterruptedRestores(storageDir, process.stderr, createStyle(Boolean(process.stderr.isTTY) && !process.env.NO_COLOR, cliRedactor(process.env)));
  applyStoredModelCatalog(storageDir, process.stderr);
  // Listing needs no model; the placeholder only satisfies the provider settings.
  const config = providerConfigFrom({ ...options, model: options.model ?? 'none' }, process.env);
  return printModels(
    config,
    options.output === 'json',
    { stdout: process.stdout, stderr: process.stderr, terminal: Boolean(process.stdout.isTTY) },
    ModelFactsCache.in(storageDir),
  );
}

/** Puts the catalogue `smith models refresh` fetched over the built-in one; says what in it was left out. */
export function applyStoredModelCatalog(storageDir: string, stderr: NodeJS.WritableStream): void {
  for (const problem of loadFetchedCatalog(storageDir).problems) stderr.write(`smith: model catalogue: left out ${problem}\n`);
}

/** Runs `smith … --list-models`; sets the exit code and reports errors as the whole CLI does. */
export function runListModels(argv: readonly string[]): Promise<void> {
  return Promise.resolve()
    .then(() => listModels(parseCliArgs(argv, process.cwd())))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error: unknown) => reportCliFailure(error),
    );
}
