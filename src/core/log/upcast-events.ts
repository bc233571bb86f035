import { serializeBlocks } from '../parse/serialize-blocks.js';
import type { AssistantBlock } from '../parse/types.js';

/**
 * The version of the event shapes this build writes, stored as `v` on every line. A line without
 * `v` was written before versions existed: version 1. Lines of different versions can share one
 * log (a task started by an older build and resumed by a newer one).
 */
export const EVENT_VERSION = 2;

/** A log line as parsed, before it is brought to the current shape. */
export type StoredLine = { readonly type: string; readonly v?: number } & Readonly<Record<string, unknown>>;

/** Turns a line of one version into the shape of the next. */
type Upcast = (line: StoredLine) => StoredLine;

/**
 * Version 1 → 2: `model_response` stored the reply twice, as `text` and as `blocks`, and the text
 * was always `serializeBlocks(blocks)`. Version 2 keeps the blocks (the text is derived when read)
 * and keeps a text only where it differs from what the blocks give.
 */
function upcastV1ToV2(line: StoredLine): StoredLine {
  if (line.type !== 'model_response' || typeof line.text !== 'string' || !Array.isArray(line.blocks)) return line;
  if (line.text !== serializeBlocks(line.blocks as AssistantBlock[])) return line;
  const { text: _derived, ...rest } = line;
  return rest as StoredLine;
}

/** Step `i` turns version i + 1 into version i + 2; one function per step, never edited once released. */
const STEPS: readonly Upcast[] = [upcastV1ToV2];

/**
 * Brings a stored line of any version this build knows to the current shape (without `v`).
 * Throws for a line written by a newer build, which this one cannot read faithfully.
 */
export function upcastLine(line: StoredLine): StoredLine {
  const version = line.v ?? 1;
  if (!Number.isInteger(version) || version < 1) throw new Error(`unknown event version ${JSON.stringify(line.v)}`);
  if (version > EVENT_VERSION)
    throw new Error(`event version ${version} was written by a newer Smith (this one reads up to version ${EVENT_VERSION}); update Smith to open this task`);
  const { v: _version, ...shape } = line;
  let current = shape as StoredLine;
  for (let step = version; step < EVENT_VERSION; step++) current = STEPS[step - 1]!(current);
  return current;
}
