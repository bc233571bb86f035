import type { TaskEvent } from '../log/events.js';
import { base64Bytes } from '../tool-kit/tool-images.js';

/**
 * Most image bytes (decoded) one request carries. Base64 adds a third, so this stays well inside
 * Gemini's 20 MB request limit (Anthropic allows 32 MB, OpenAI 50 MB).
 */
export const CONTEXT_IMAGE_BYTES = 10 * 1024 * 1024;

/** Most images one request carries: past 20, Anthropic shrinks the largest size it accepts. */
const CONTEXT_IMAGE_COUNT = 20;

/** Which tool results' images go with the next request. */
interface ImageSelection {
  /** Results sent with their images. */
  readonly sent: ReadonlySet<number>;
  /** Older results whose images were left out to stay within the budget. */
  readonly leftOut: ReadonlySet<number>;
}

/**
 * Chooses the tool results whose images the request carries: the newest first, whole results,
 * while the budget lasts. Results the projection no longer shows (condensed or truncated away) are
 * not counted. Derived from the log alone, so a replay sends the same images.
 */
export function selectContextImages(events: readonly TaskEvent[], hidden: ReadonlySet<number>): ImageSelection {
  const sent = new Set<number>();
  const leftOut = new Set<number>();
  let bytes = 0;
  let count = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type === 'history_condensed') break;
    if (event.type !== 'tool_result' || !event.images?.length || hidden.has(event.seq)) continue;
    const size = event.images.reduce((sum, image) => sum + base64Bytes(image.data), 0);
    if (leftOut.size === 0 && bytes + size <= CONTEXT_IMAGE_BYTES && count + event.images.length <= CONTEXT_IMAGE_COUNT) {
      bytes += size;
      count += event.images.length;
      sent.add(event.seq);
    } else {
      // Once one result is left out, older ones are too, so the model never sees an older image without a newer one.
      leftOut.add(event.seq);
    }
  }
  return { sent, leftOut };
}
