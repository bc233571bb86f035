// What every source format's reader produces: one conversation, in Smith's events, and what it could not carry over.
import type { NewEvent } from '../log/events.js';
import type { ImportSource } from '../log/conversation-events.js';
import type { Base64Image } from '../providers/types.js';

/** A content block as stored: an object with a `type`, anything else unchecked. */
export type SourceBlock = Readonly<Record<string, unknown>>;

/** A session that cannot be imported, worded for the user; nothing was written. */
export class ImportError extends Error {}

/** An event of the imported conversation with the time it happened (ms since the epoch). */
export interface TimedEvent {
  readonly event: NewEvent;
  readonly ts: number;
}

/** A session read from another agent, ready to be written as a Smith task. */
export interface ImportedSession {
  readonly source: ImportSource;
  /** The file or folder read. */
  readonly path: string;
  /** The other agent's id of the session or task. */
  readonly sessionId: string;
  /** The workspace folder the session ran in, when the source records it. */
  readonly cwd: string | undefined;
  readonly provider: string | undefined;
  readonly model: string | undefined;
  /** The first message of the user: the task. */
  readonly task: { readonly text: string; readonly context?: string; readonly images?: readonly Base64Image[]; readonly ts: number };
  /** Everything after the task, in order. */
  readonly events: readonly TimedEvent[];
  /** What could not be carried over, one line each, worded for the user. */
  readonly notCarried: readonly string[];
}
