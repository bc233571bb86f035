import { serializeBlocks } from '../parse/serialize-blocks.js';
import type { TaskEvent } from './events.js';
import { EVENT_VERSION, upcastLine, type EarlierEvents, type StoredLine } from './upcast-events.js';

/**
 * An event as one line of the log: the current version first, and nothing that can be derived
 * when read (a model reply's text is its blocks serialized, so only the blocks are stored).
 */
export function storedLine(event: TaskEvent): string {
  if (event.type === 'model_response' && event.text === serializeBlocks(event.blocks)) {
    const { text: _derived, ...stored } = event;
    return JSON.stringify({ v: EVENT_VERSION, ...stored });
  }
  return JSON.stringify({ v: EVENT_VERSION, ...event });
}

/** A parsed log line of any known version as the event the engine reads, derived fields filled in; `earlier`: the log's events before it. */
export function eventFromLine(line: StoredLine, earlier: EarlierEvents = []): TaskEvent {
  const event = upcastLine(line, earlier);
  if (event.type === 'model_response' && event.text === undefined) {
    return { ...event, text: serializeBlocks(event.blocks as Parameters<typeof serializeBlocks>[0]) } as unknown as TaskEvent;
  }
  return event as unknown as TaskEvent;
}
