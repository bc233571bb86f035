// Most of a long task's context is old tool output: files read, test runs, search results the
// model has long since acted on. Before the whole history is condensed (one more model request,
// and the detail lost), the large old results are shortened to their beginning and end. It is one
// logged step that covers every result up to a point, so the requests after it share one prefix
// again (prompt caches keep working) and every projection agrees on what the model saw.
import type { TaskEvent } from '../log/events.js';
import { estimateTextTokens } from './token-estimate.js';

/** Results of the last this many model responses stay whole: the model is still working with them. */
export const KEEP_RECENT_TURNS = 4;
/** An older result larger than this is shortened to about this size. */
export const SHORTENED_RESULT_TOKENS = 800;

// Characters per token the estimate assumes (token-estimate.ts); only for splitting text.
const CHARS_PER_TOKEN = 4;

/** A shortening to log: every result up to `throughSeq` above `maxTokens`, and about how many tokens it saves. */
interface ShorteningPlan {
  readonly throughSeq: number;
  readonly maxTokens: number;
  readonly results: number;
  readonly savedTokens: number;
}

/**
 * What shortening the large results older than the last `keepTurns` responses would do; undefined
 * when no result not yet shortened is large enough to matter.
 */
export function planShortening(events: readonly TaskEvent[], keepTurns = KEEP_RECENT_TURNS, maxTokens = SHORTENED_RESULT_TOKENS): ShorteningPlan | undefined {
  let responses = 0;
  let throughSeq = -1;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type !== 'model_response') continue;
    responses++;
    // Everything before the oldest response kept whole: the results the older responses got.
    if (responses === keepTurns) {
      throughSeq = event.seq - 1;
      break;
    }
  }
  if (throughSeq < 0) return undefined;
  const done = shortenedThrough(events);
  let results = 0;
  let savedTokens = 0;
  for (const event of events) {
    if (event.seq > throughSeq) break;
    if (event.type !== 'tool_result' || event.seq <= done.throughSeq) continue;
    const tokens = estimateTextTokens(event.output);
    if (tokens <= maxTokens * 2) continue;
    results++;
    savedTokens += tokens - maxTokens;
  }
  return results > 0 ? { throughSeq: Math.max(throughSeq, done.throughSeq), maxTokens, results, savedTokens } : undefined;
}

/** How far the log's shortenings reach (the last one covers every earlier one). */
export function shortenedThrough(events: readonly TaskEvent[]): { readonly throughSeq: number; readonly maxTokens: number } {
  const last = events.findLast((event) => event.type === 'tool_results_shortened');
  return last?.type === 'tool_results_shortened' ? { throughSeq: last.throughSeq, maxTokens: last.maxTokens } : { throughSeq: -1, maxTokens: 0 };
}

/** A result's text as the model sees it after a shortening: its beginning and end, and what was left out between. */
export function shortenedOutput(output: string, maxTokens: number): string {
  if (estimateTextTokens(output) <= maxTokens * 2) return output;
  const keep = Math.floor((maxTokens * CHARS_PER_TOKEN) / 2);
  const head = output.slice(0, lineEndAfter(output, keep));
  const tail = output.slice(lineStartBefore(output, output.length - keep));
  const omitted = output.slice(head.length, output.length - tail.length);
  const lines = omitted.split('\n').length;
  return (
    `${head}\n[… ${lines} line${lines === 1 ? '' : 's'} (about ${estimateTextTokens(omitted)} tokens) of this old result were left out to keep the ` +
    `context small; run the tool again if you need them …]\n${tail}`
  );
}

/** The end of the line holding `offset` (cuts at a line break where one is near). */
function lineEndAfter(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  return end === -1 || end - offset > 200 ? offset : end;
}

function lineStartBefore(text: string, offset: number): number {
  const start = text.lastIndexOf('\n', offset);
  return start === -1 || offset - start > 200 ? offset : start + 1;
}
