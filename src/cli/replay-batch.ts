// `smith replay --batch FILE`: the file lists the replays to run, each a task id and its settings.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { UsageError } from './usage-error.js';

const entrySchema = z
  .object({
    task: z.string().min(1),
    /** A name for the row (default: the model). */
    label: z.string().optional(),
    provider: z.string().optional(),
    model: z.string().optional(),
    baseUrl: z.string().optional(),
    mode: z.string().optional(),
    /** The older name of `mode`. */
    skill: z.string().optional(),
    /** A rules file, relative to the batch file's folder. */
    rules: z.string().optional(),
    inputPrice: z.number().nonnegative().optional(),
    outputPrice: z.number().nonnegative().optional(),
    contextWindow: z.number().int().positive().optional(),
  })
  .strict();

const runsSchema = z.array(entrySchema);
const batchObjectSchema = z.object({ concurrency: z.number().int().positive().optional(), runs: runsSchema }).strict();

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
