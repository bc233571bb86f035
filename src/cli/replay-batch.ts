// `smith replay --batch FILE`: the file lists the replays to run, each a task id and its settings.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import * as z from '../shared/zod-config.js';
import { UsageError } from './usage-error.js';

const entrySchema = z.strictObject({
  task: z.string().check(z.minLength(1)),
  /** A name for the row (default: the model). */
  label: z.optional(z.string()),
  provider: z.optional(z.string()),
  model: z.optional(z.string()),
  baseUrl: z.optional(z.string()),
  mode: z.optional(z.string()),
  /** The older name of `mode`. */
  skill: z.optional(z.string()),
  /** A rules file, relative to the batch file's folder. */
  rules: z.optional(z.string()),
  inputPrice: z.optional(z.number().check(z.nonnegative())),
  outputPrice: z.optional(z.number().check(z.nonnegative())),
  contextWindow: z.optional(z.number().check(z.int(), z.positive())),
});

const runsSchema = z.array(entrySchema);
const batchObjectSchema = z.strictObject({ concurrency: z.optional(z.number().check(z.int(), z.positive())), runs: runsSchema });

/** One replay of a batch file. */
type BatchEntry = z.infer<typeof entrySchema>;

/** A batch file read and checked: its replays (rules paths made absolute) and its concurrency, if it sets one. */
interface ReplayBatch {
  readonly runs: readonly BatchEntry[];
  readonly concurrency?: number;
}

/** Reads a batch file: a JSON array of entries, or `{ "concurrency": N, "runs": [...] }`. */
export function readReplayBatch(file: string): ReplayBatch {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--batch ${file}: ${(error as Error).message}`);
  }
  // Checked against the shape the file has, so an error names the very field that is wrong.
  const parsed = Array.isArray(raw) ? runsSchema.safeParse(raw) : batchObjectSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(
      `--batch ${file}: ${issue.path.join('.') || 'the file'}: ${issue.message} (expected an array of {"task", "model"?, "provider"?, "baseUrl"?, "mode"?, "rules"?, "label"?} or {"concurrency", "runs": [...]})`,
    );
  }
  const data = parsed.data;
  const runs = (Array.isArray(data) ? data : data.runs).map((entry) => (entry.rules ? { ...entry, rules: resolve(dirname(file), entry.rules) } : entry));
  if (runs.length === 0) throw new UsageError(`--batch ${file}: no runs listed`);
  return { runs, ...(!Array.isArray(data) && data.concurrency ? { concurrency: data.concurrency } : {}) };
}

/** The entry's settings as flags of `smith replay`, so the command line's and the entry's are read one way. */
export function entryFlags(entry: BatchEntry): string[] {
  const flags: string[] = [];
  const add = (flag: string, value: string | number | undefined) => {
    if (value !== undefined) flags.push(flag, String(value));
  };
  add('--provider', entry.provider);
  add('--model', entry.model);
  add('--base-url', entry.baseUrl);
  add('--mode', entry.mode ?? entry.skill);
  add('--rules', entry.rules);
  add('--input-price', entry.inputPrice);
  add('--output-price', entry.outputPrice);
  add('--context-window', entry.contextWindow);
  return flags;
}

/** Runs `work` on every item, at most `limit` at a time, and returns the results in the items' order. */
export async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
