// `smith models refresh [SOURCE]`: fetches a model catalogue file into Smith's storage, so models
// released after this build have their windows and prices (docs/providers.md, Model facts).
import { isAbsolute, resolve } from 'node:path';
import { refreshModelCatalog } from '../core/providers/model-catalog-updates.js';
import { parseFlags, UsageError } from './usage-error.js';
import { defaultStorageDir } from './default-storage.js';

/** Where the catalogue is fetched from when the command line names no source. */
export const MODEL_CATALOG_URL_ENV = 'SMITH_MODEL_CATALOG_URL';

const MODELS_HELP = `Usage: smith models refresh [URL | FILE] [--storage DIR]

Fetches a model catalogue (JSON: {"version": 1, "models": {"anthropic": {"<id>": {…}}}}) from an
http(s) URL or a file, checks each entry, and keeps it in <storage>/model-catalog.json, where every
later run and the editor read it: its entries win over the built-in catalogue. Without a source,
the URL in $${MODEL_CATALOG_URL_ENV} is used. Entries that are not valid are named and left out; a
source with no valid entry changes nothing. See docs/providers.md.`;

interface Output {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** Runs `smith models …` (argv after "models"); the exit code. */
export async function runModelsCommand(argv: readonly string[], output: Output): Promise<number> {
  const { values, positionals } = parseFlags(argv, { storage: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, { positionals: true });
  if (values.help || positionals.length === 0) {
    output.stdout.write(`${MODELS_HELP}\n`);
    return values.help ? 0 : 2;
  }
  const [action, given, ...extra] = positionals;
  if (action !== 'refresh') throw new UsageError(`unknown models command: ${action} (expected: smith models refresh [URL | FILE])`);
  if (extra.length > 0) throw new UsageError(`smith models refresh takes one source, got: ${[given, ...extra].join(' ')}`);
  const source = given ?? output.env[MODEL_CATALOG_URL_ENV];
  if (!source) throw new UsageError(`smith models refresh needs a URL or a file (or $${MODEL_CATALOG_URL_ENV})`);
  const absolute = /^https?:\/\//i.test(source) || isAbsolute(source) ? source : resolve(output.cwd, source);
  const storageDir = values.storage ?? defaultStorageDir();
  const refreshed = await refreshModelCatalog(absolute, storageDir);
  for (const problem of refreshed.problems) output.stderr.write(`smith: left out ${problem}\n`);
  output.stdout.write(`${refreshed.count} model${refreshed.count === 1 ? '' : 's'} from ${source}, kept in ${refreshed.file}\n`);
  return 0;
}
