// The panel folds each appended event into its chat instead of projecting the whole log again:
// folding one event at a time must give what projecting all events at once gives, and the index a
// fold reports must cover every message it changed (the panel sends only that tail).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NewEvent, TaskEvent } from '../../../src/core/log/events.js';
import { emptyUiProjection, foldUiEvent, foldUiEvents, uiProjection } from '../../../src/core/task/ui-projection.js';
import { eventFromLine } from '../../../src/core/log/stored-events.js';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { STORED_LOGS, asThatBuildShowed, storedLogProjections, storedLogText } from '../../helpers/stored-logs.js';

/** A small deterministic generator (mulberry32), so a failing sequence can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const USAGE = { inputTokens: 1, outputTokens: 1 };

/** One random event; call ids come from a small pool so calls repeat, interleave and go unanswered. */
function randomEvent(next: () => number): NewEvent {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const callId = pick(['c1', 'c2', 'c3', 'c4']);
  const events: Array<() => NewEvent> = [
    () => ({ type: 'user_message', text: pick(['more', '', 'again']) }),
    () => ({ type: 'request_started', environmentDetails: 'E' }),
    () => ({
      type: 'model_response',
      text: '',
      reasoning: pick(['', 'why']),
      blocks: pick([
        [],
        [{ kind: 'text', text: 'Reading.', partial: false }],
        [
          { kind: 'thinking', text: 'plan', partial: false },
          { kind: 'text', text: 'ok', partial: false },
        ],
      ]),
      usage: USAGE,
    }),
    () => ({ type: 'tool_requested', callId, tool: pick(['read_file', 'execute_command']), params: { path: 'a.ts' } }),
    () => ({ type: 'approval_asked', callId }),
    () => ({ type: 'approval_answered', callId, approved: next() < 0.5, ...(next() < 0.5 ? { feedback: 'careful' } : {}) }),
    () => ({
      type: 'tool_result',
      callId,
      tool: 'read_file',
      output: pick(['1 | x', 'done']),
      ...(next() < 0.2 ? { images: [{ mimeType: 'image/png', data: 'AA==' }] } : {}),
    }),
    () => ({ type: 'tool_error', callId: next() < 0.7 ? callId : 'x9', tool: 'read_file', error: 'no such file', mistake: next() < 0.5 }),
    () => ({ type: 'no_tool_used' }),
    () => ({ type: 'task_resumed' }),
    () => ({ type: 'error', message: 'boom' }),
    () => ({ type: 'task_completed', result: 'Done', ...(next() < 0.3 ? { command: 'npm test' } : {}) }),
    () => ({ type: 'task_aborted', reason: 'cancelled by the user' }),
    () => ({ type: 'mode_switched', mode: pick(['plan', 'act'] as const) }),
    () => ({ type: 'mode_slug_switched', modeSlug: 'code' }),
    () => ({ type: 'history_condensed', summary: 's' }),
    () => ({ type: 'condense_failed', error: 'e' }),
    () => ({ type: 'history_truncated', fromSeq: 1, toSeq: 2, reason: 'r' }),
    () => ({ type: 'response_interrupted', partialText: pick(['', 'half']), error: 'lost' }),
    () => ({ type: 'request_retried', attempt: 1, maxRetries: 3, delayMs: 500, reason: 'HTTP 503' }),
    () => ({ type: 'new_task_requested', context: 'c' }),
    () => ({ type: 'command_started', callId, command: 'ls' }),
    () => ({ type: 'checkpoint_created', checkpointId: '1', root: 'r', afterSeq: 0, changed: [], changedCount: 0, skipped: [] }),
    // toSeq is set once the event's position is known (randomLog); some rewinds restore files only.
    () => ({ type: 'conversation_rewound', checkpointId: '1', files: next() < 0.5, ...(next() < 0.8 ? { toSeq: -1 } : {}) }),
  ];
  return pick(events)();
}

function randomLog(seed: number, length: number): TaskEvent[] {
  const next = random(seed);
  const started: NewEvent = { type: 'task_started', taskId: 't', task: 'Fix it', cwd: '/w', provider: 'openai', model: 'm', mode: 'act', modeSlug: 'code' };
  const events = [started, ...Array.from({ length }, () => randomEvent(next))];
  return events.map((event, seq) => {
    // A rewind goes back to some earlier event of the log.
    const rewind = event.type === 'conversation_rewound' && event.toSeq !== undefined ? { toSeq: 1 + Math.floor(next() * Math.max(1, seq - 1)) } : {};
    return { ...event, ...rewind, seq, ts: 1000 + seq } as TaskEvent;
  });
}

/** Applies what a fold reports as the panel's webview does: keep the messages before `start`, take the rest. */
function applyTail(shown: readonly UiMessage[], start: number, tail: readonly UiMessage[]): UiMessage[] {
  return [...shown.slice(0, start), ...tail];
}

describe('uiProjection as a fold', () => {
  test('folding event by event equals projecting the whole log, for generated logs', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const events = randomLog(seed, 60);
      const state = emptyUiProjection();
      for (const event of events) foldUiEvent(state, event);
      assert.deepEqual(state.messages, uiProjection(events), `seed ${seed}`);
      assert.equal(state.folded, events.length);
    }
  });

  test('each fold reports the first message it changed, so sending only the tail keeps the panel exact', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const events = randomLog(seed, 60);
      const state = emptyUiProjection();
      let shown: UiMessage[] = [];
      // Fold the log as it grows, sometimes one event at a time, sometimes several appended at once.
      const next = random(seed * 7919);
      for (let end = 0; end < events.length; ) {
        end = Math.min(events.length, end + 1 + Math.floor(next() * 3));
        const start = foldUiEvents(state, events.slice(0, end));
        const expected = uiProjection(events.slice(0, end));
        shown = applyTail(shown, start, state.messages.slice(start));
        assert.deepEqual(shown, expected, `seed ${seed}, ${end} events`);
      }
    }
  });

  for (const name of STORED_LOGS) {
    test(`${name}: folding a real task's log event by event gives the chat its build showed`, () => {
      const events = storedLogText(name)
        .trim()
        .split('\n')
        .map((line) => eventFromLine(JSON.parse(line)));
      const state = emptyUiProjection();
      let shown: UiMessage[] = [];
      for (let end = 1; end <= events.length; end++) {
        const start = foldUiEvents(state, events.slice(0, end));
        shown = applyTail(shown, start, state.messages.slice(start));
        assert.deepEqual(shown, uiProjection(events.slice(0, end)));
      }
      assert.deepEqual(asThatBuildShowed(shown), storedLogProjections(name).ui);
    });
  }

  test('a fold that changes nothing the chat shows reports no change', () => {
    const events = randomLog(1, 0);
    const state = emptyUiProjection();
    foldUiEvents(state, events);
    const more = [...events, { type: 'request_started', environmentDetails: 'E', seq: 1, ts: 1 } as TaskEvent];
    assert.equal(foldUiEvents(state, more), state.messages.length);
  });

  test('messages handed out earlier are never changed by later folds', () => {
    const events = randomLog(42, 200);
    const state = emptyUiProjection();
    const copies: string[] = [];
    const handedOut: UiMessage[][] = [];
    for (let end = 1; end <= events.length; end++) {
      foldUiEvents(state, events.slice(0, end));
      handedOut.push([...state.messages]);
      copies.push(JSON.stringify(state.messages));
    }
    for (const [i, messages] of handedOut.entries()) assert.equal(JSON.stringify(messages), copies[i]);
  });
});
