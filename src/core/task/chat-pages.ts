import { BackwardLines } from '../log/log-lines.js';
import type { TaskEvent } from '../log/events.js';
import { eventFromLine } from '../log/stored-events.js';
import type { StoredLine } from '../log/upcast-events.js';
import type { UiMessage } from '../../shared/ui-messages.js';
import { addsMessage, beginsPage, projectPage, type LaterEffects } from './ui-projection.js';

/** A log line parsed but not yet brought to the current shapes (that needs the events before it). */
type RawLine = StoredLine & { readonly seq?: unknown; readonly afterSeq?: unknown; readonly toSeq?: unknown; readonly task?: unknown };

/**
 * A stored task's chat read from the end of its log, a page at a time: the newest messages cost
 * the same whatever the log's size, and each older page is read only when asked for. The pages
 * together are exactly `uiProjection` of the whole log (settled as interrupted when `interrupted`):
 * events a later rewind hid are left out as they are read (every rewind lies after what it hides),
 * and what later events do to earlier cards is carried back (projectPage). Lines that cannot be
 * read are left out (a full read of the log, readLogTolerantly, says which).
 */
export class ChatPages {
  private readonly lines: BackwardLines;
  private later: LaterEffects;
  /** The parts of the log later rewinds hid: [from, to) by seq. */
  private readonly cuts: Array<readonly [number, number]> = [];
  /** The task's text as the user last edited it (the latest rewind that carries one). */
  private editedTask: string | undefined;
  private exhausted = false;

  constructor(file: string, size: number, interrupted: boolean) {
    this.lines = new BackwardLines(file, size);
    this.later = { events: [], settleAtEnd: interrupted };
  }

  /** True while older messages may remain. */
  get more(): boolean {
    return !this.exhausted;
  }

  /** The page before the ones read so far: at least `count` messages unless the log's start comes first. */
  older(count: number): UiMessage[] {
    const page: RawLine[] = [];
    let adding = 0;
    while (true) {
      const line = this.lines.previous();
      if (line === undefined) {
        this.exhausted = true;
        break;
      }
      if (line.text.trim() === '') continue;
      let value: RawLine;
      try {
        value = JSON.parse(line.text) as RawLine;
      } catch {
        continue;
      }
      if (typeof value !== 'object' || value === null) continue;
      this.noteRewind(value);
      if (this.hidden(value)) continue;
      page.push(value);
      if (addsMessage(String(value.type))) adding++;
      if (adding >= count && beginsPage(String(value.type))) break;
    }
    const events = this.eventsOf(page.reverse());
    const { messages, earlier } = projectPage(events, this.later);
    this.later = earlier;
    return messages;
  }

  private noteRewind(value: RawLine): void {
    if (value.type !== 'conversation_rewound' || typeof value.seq !== 'number') return;
    if (typeof value.toSeq === 'number') this.cuts.push([value.toSeq, value.seq]);
    // Read newest first: the first edited text met is the last one written.
    if (this.editedTask === undefined && typeof value.task === 'string') this.editedTask = value.task;
  }

  /** Hidden by a rewind read before it (visibleEvents: a checkpoint of a step before the cut stays). */
  private hidden(value: RawLine): boolean {
    const seq = value.seq;
    if (typeof seq !== 'number') return false;
    for (const [from, to] of this.cuts) {
      if (seq < from || seq >= to) continue;
      if (value.type === 'checkpoint_created' && typeof value.afterSeq === 'number' && value.afterSeq < from) continue;
      return true;
    }
    return false;
  }

  /** The page's lines as events of the current shapes, oldest first (a line an upcast refuses is left out). */
  private eventsOf(page: readonly RawLine[]): TaskEvent[] {
    const events: TaskEvent[] = [];
    for (const line of page) {
      let event: TaskEvent;
      try {
        event = eventFromLine(line, events);
      } catch {
        continue;
      }
      events.push(event.type === 'task_started' && this.editedTask !== undefined ? { ...event, task: this.editedTask } : event);
    }
    return events;
  }
}
