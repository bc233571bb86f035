// New models appear faster than Smith is released. The user can fetch a catalogue file (from a URL
// the company or the project publishes, or a local file) into Smith's storage; its entries are put
// over the built-in ones at start-up. A bad entry is left out and named; a bad file changes nothing.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { OPENAI_APIS } from '../../shared/provider-schemas.js';
import { CATALOG_VENDORS, type CatalogEntry, type CatalogVendor, type LongContextPricing } from './model-catalog-data.js';
import { applyFetchedCatalog } from './model-catalog.js';

/** The file in Smith's storage that holds the fetched catalogue. */
export const FETCHED_CATALOG_FILE = 'model-catalog.json';

/** A catalogue larger than this is not a catalogue. */
const MAX_CATALOG_BYTES = 5 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

type FetchedTable = Partial<Record<CatalogVendor, Record<string, CatalogEntry>>>;

/** What reading a catalogue file found: the valid entries, and why each other one was left out. */
interface ParsedCatalog {
  readonly models: FetchedTable;
  readonly count: number;
  readonly problems: readonly string[];
}

/**
 * Reads a catalogue file's JSON: `{"version": 1, "models": {"anthropic": {"claude-opus-4-7": {…}}}}`,
 * each entry with the fields of the built-in catalogue (contextWindow, maxOutputTokens, inputPrice,
 * outputPrice, optional cache prices and longContextPricing, supportsReasoning, supportsImages,
 * supportsPromptCache, optional aliases). Throws when the file as a whole is not one.
 */
export function parseCatalogFile(json: unknown): ParsedCatalog {
  if (!isRecord(json) || json.version !== 1 || !isRecord(json.models)) {
    throw new Error('not a Smith model catalogue: expected {"version": 1, "models": {"<vendor>": {"<model id>": {…}}}}');
  }
  const models: FetchedTable = {};
  const problems: string[] = [];
  let count = 0;
  for (const [vendor, entries] of Object.entries(json.models)) {
    if (!(CATALOG_VENDORS as readonly string[]).includes(vendor)) {
      problems.push(`${vendor}: not a vendor Smith has a catalogue for (${CATALOG_VENDORS.join(', ')})`);
      continue;
    }
    if (!isRecord(entries)) {
      problems.push(`${vendor}: expected an object of models`);
      continue;
    }
    const table: Record<string, CatalogEntry> = {};
    for (const [id, entry] of Object.entries(entries)) {
      const problem = /^[a-z0-9][a-z0-9._:@/-]{0,199}$/.test(id) ? entryProblem(entry) : 'a model id is lower-case letters, digits and . _ : @ / -';
      if (problem) problems.push(`${vendor}/${id}: ${problem}`);
      else {
        table[id] = entry as CatalogEntry;
        count++;
      }
    }
    models[vendor as CatalogVendor] = table;
  }
  return { models, count, problems };
}

/**
 * Puts the fetched catalogue in `storageDir` over the built-in one for this process. A missing file
 * changes nothing; an unreadable or invalid one is reported and ignored (the built-in catalogue stays).
 */
export function loadFetchedCatalog(storageDir: string): { readonly count: number; readonly problems: readonly string[] } {
  let text: string;
  try {
    text = readFileSync(join(storageDir, FETCHED_CATALOG_FILE), 'utf8');
  } catch {
    return { count: 0, problems: [] };
  }
  try {
    const parsed = parseCatalogFile(JSON.parse(text));
    applyFetchedCatalog(parsed.models);
    return parsed;
  } catch (error) {
    return { count: 0, problems: [`${join(storageDir, FETCHED_CATALOG_FILE)}: ${(error as Error).message}`] };
  }
}

/** What a refresh did. */
export interface CatalogRefresh extends ParsedCatalog {
  readonly file: string;
}

/**
 * Fetches a catalogue from `source` (an http(s) URL, or an absolute path to a file), checks it, and
 * writes it to `storageDir` (whole, through a temporary file) and puts it to use. Throws, leaving the
 * stored catalogue as it was, when the source cannot be read or holds no valid entry.
 */
export async function refreshModelCatalog(source: string, storageDir: string, signal?: AbortSignal): Promise<CatalogRefresh> {
  const text = await readSource(source, signal);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`);
  }
  const parsed = parseCatalogFile(json);
  if (parsed.count === 0)
    throw new Error(`${source} has no valid model entry${parsed.problems.length > 0 ? `: ${parsed.problems.slice(0, 3).join('; ')}` : ''}`);
  const file = join(storageDir, FETCHED_CATALOG_FILE);
  mkdirSync(storageDir, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ version: 1, source, fetchedAt: new Date().toISOString(), models: parsed.models }, null, 1)}\n`);
  renameSync(temp, file);
  applyFetchedCatalog(parsed.models);
  return { ...parsed, file };
}

async function readSource(source: string, signal?: AbortSignal): Promise<string> {
  if (!/^https?:\/\//i.test(source)) {
    if (!isAbsolute(source)) throw new Error(`a model catalogue source is an http(s) URL or an absolute file path, not ${JSON.stringify(source)}`);
    const bytes = readFileSync(source);
    if (bytes.length > MAX_CATALOG_BYTES) throw new Error(`${source} is larger than ${MAX_CATALOG_BYTES} bytes`);
    return bytes.toString('utf8');
  }
  const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const response = await fetch(source, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout, redirect: 'follow' }).catch((error: unknown) => {
    throw new Error(`could not fetch ${source}: ${timeout.aborted ? `no answer in ${FETCH_TIMEOUT_MS / 1000} s` : (error as Error).message}`);
  });
  if (!response.ok) throw new Error(`could not fetch ${source}: HTTP ${response.status}`);
  return readCapped(response, source);
}

/** The body, refused as soon as it passes the cap (a server may send without end). */
async function readCapped(response: Response, source: string): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_CATALOG_BYTES) {
      await reader.cancel();
      throw new Error(`${source} sent more than ${MAX_CATALOG_BYTES} bytes: not a model catalogue`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const REQUIRED_COUNTS = ['contextWindow', 'maxOutputTokens'] as const;
const REQUIRED_PRICES = ['inputPrice', 'outputPrice'] as const;
const OPTIONAL_PRICES = ['cacheReadPrice', 'cacheWritePrice'] as const;
const FLAGS = ['supportsReasoning', 'supportsImages', 'supportsPromptCache'] as const;

/** Why an entry is not a catalogue entry, or undefined when it is one. */
function entryProblem(entry: unknown): string | undefined {
  if (!isRecord(entry)) return 'expected an object';
  for (const key of REQUIRED_COUNTS) if (!isCount(entry[key])) return `${key} must be a positive whole number`;
  for (const key of REQUIRED_PRICES) if (!isPrice(entry[key])) return `${key} must be a price (US dollars per million tokens, 0 or more)`;
  for (const key of OPTIONAL_PRICES) if (entry[key] !== undefined && !isPrice(entry[key])) return `${key} must be a price`;
  for (const key of FLAGS) if (typeof entry[key] !== 'boolean') return `${key} must be true or false`;
  if (entry.aliases !== undefined && !(Array.isArray(entry.aliases) && entry.aliases.every((alias) => typeof alias === 'string')))
    return 'aliases must be a list of ids';
  if (entry.api !== undefined && !(OPENAI_APIS as readonly unknown[]).includes(entry.api)) return `api must be one of ${OPENAI_APIS.join(', ')}`;
  if (entry.longContextPricing !== undefined && !isLongContextPricing(entry.longContextPricing)) {
    return 'longContextPricing must have thresholdTokens, inputPrice and outputPrice';
  }
  return undefined;
}

function isLongContextPricing(value: unknown): value is LongContextPricing {
  return (
    isRecord(value) &&
    isCount(value.thresholdTokens) &&
    isPrice(value.inputPrice) &&
    isPrice(value.outputPrice) &&
    OPTIONAL_PRICES.every((key) => value[key] === undefined || isPrice(value[key]))
  );
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function isPrice(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
