import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { NewEvent, TaskEvent } from '../../../src/core/log/events.js';
import { BackwardLines, readLogTolerantly } from '../../../src/core/log/log-lines.js';
import { storedLine } from '../../../src/core/log/stored-events.js';
import { ChatPages } from '../../../src/core/task/chat-pages.js';
import { uiProjection } from '../../../src/core/task/ui-projection.js';
import { settleInterrupted } from '../../../src/panel/panel-state.js';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { STORED_LOGS, storedLogText } from '../../helpers/stored-logs.js';

const dir = mkdtempSync(join(tmpdir(), 'smith-chat-pages-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

function writeLog(text: string): string {
  const file = join(dir, `log-${++files}.jsonl`);
  writeFileSync(file, text);
  return file;
}

function stamp(events: readonly NewEvent[]): TaskEvent[] {
  return events.map((event, seq) => ({ ...event, seq, ts: 1000 + seq }) as TaskEvent);
}

const text = (events: readonly TaskEvent[]) => events.map((event) => `${storedLine(event)}\n`).join('');

/** Every page of the file, oldest first, read `count` messages at a time. */
function allPages(file: string, count: number, interrupted = false): { messages: UiMessage[]; pages: number } {
  const pages = new ChatPages(file, statSync(file).size, interrupted);
  const read: UiMessage[][] = [];
  while (pages.more) read.unshift(pages.older(count));
  return { messages: read.flat(), pages: read.length };
}

const PNG = { mimeType: 'image/png', data: 'iVBORw0KGgo=' };

/** A task with every kind of step that reaches back: calls, rejections, screenshots, resumes, rewinds, an edited first message. */
function varied(): TaskEvent[] {
  const events: NewEvent[] = [
    { type: 'task_started', taskId: 't', task: 'Fix the form', cwd: '/w', provider: 'openai', model: 'm', mode: 'act', modeSlug: 'code' },
  ];
  const step = (i: number) => {
    const callId = `call-${events.length + 2}`;
    events.push({ type: 'request_started', environmentDetails: `${i}` });
    events.push({
      type: 'model_response',
      text: '',
      reasoning: i % 3 === 0 ? `thinking ${i}` : '',
      blocks: [{ kind: 'text', text: `Step ${i}`, partial: false }],
      usage: { inputTokens: 10, outputTokens: 2 },
    });
    const tool = i % 4 === 0 ? 'browser_action' : 'execute_command';
    events.push({ type: 'tool_requested', callId, tool, params: { command: `run ${i}` } });
    if (i % 5 === 0) {
      events.push({ type: 'approval_asked', callId });
      events.push({ type: 'approval_answered', callId, approved: false, feedback: `not ${i}` });
      return;
    }
    if (i % 7 === 3) {
      events.push({ type: 'tool_error', callId, tool, error: `failed ${i}`, mistake: false });
      // A tag that is no tool: an error the model made, with no call requested.
      events.push({ type: 'tool_error', callId: `call-${events.length}`, tool: 'no_such_tool', error: `"no_such_tool" is not a tool`, mistake: true });
      return;
    }
    events.push({ type: 'tool_auto_approved', callId });
    if (tool === 'browser_action') {
      events.push({
        type: 'tool_result',
        callId,
        tool,
        output: `shot ${i}`,
        images: [PNG],
        details: { browser: { action: 'click', console: [], screenshot: true } },
      });
    } else {
      events.push({ type: 'tool_result', callId, tool, output: i === 13 ? 'x'.repeat(200_000) : `out ${i}` });
    }
    if (i % 6 === 0) {
      const afterSeq = events.length - 1;
      events.push({ type: 'checkpoint_created', checkpointId: String(i), root: `r${i}`, afterSeq, changed: [`f${i}`], changedCount: 1, skipped: [] });
    }
  };
  for (let i = 1; i <= 12; i++) step(i);
  // A run cut off while a command ran, then resumed: the open card settles as interrupted.
  events.push({ type: 'request_started', environmentDetails: 'cut' });
  events.push({ type: 'tool_requested', callId: `call-${events.length}`, tool: 'execute_command', params: { command: 'sleep' } });
  events.push({ type: 'task_resumed' });
  for (let i = 13; i <= 30; i++) step(i);
  // The user rewound to step 20 and edited the first message.
  const rewindTo = events.findIndex((e) => e.type === 'request_started' && e.environmentDetails === '20');
  events.push({ type: 'conversation_rewound', toSeq: rewindTo, checkpointId: '18', files: true, task: 'Fix the form, politely' });
  for (let i = 31; i <= 40; i++) step(i);
  events.push({ type: 'user_message', text: 'and the footer' });
  for (let i = 41; i <= 44; i++) step(i);
  events.push({ type: 'task_completed', result: 'Done.' });
  events.push({ type: 'user_message', text: 'one more' });
  events.push({ type: 'request_started', environmentDetails: 'last' });
  events.push({ type: 'tool_requested', callId: `call-${events.length}`, tool: 'execute_command', params: { command: 'left running' } });
  return stamp(events);
}

describe('a stored chat read a page at a time from the end of its log', () => {
  test('the pages, put together, are the whole projection, for every page size', () => {
    const events = varied();
    const file = writeLog(text(events));
    const whole = settleInterrupted(uiProjection(events));
    for (const count of [1, 2, 3, 5, 8, 13, 40, 1000]) {
      const { messages, pages } = allPages(file, count, true);
      assert.deepEqual(messages, whole, `pages of ${count}`);
      if (count <= 13) assert.ok(pages > 3, `${count} messages a page gives several pages (${pages})`);
    }
  });

  test('a log that ends as it should is not settled, and the first page is the newest messages', () => {
    const events = varied().slice(0, -3);
    const file = writeLog(text(events));
    const whole = uiProjection(events);
    assert.deepEqual(allPages(file, 4).messages, whole);
    const newest = new ChatPages(file, statSync(file).size, false).older(6);
    assert.ok(newest.length >= 6 && newest.length < whole.length);
    assert.deepEqual(newest, whole.slice(whole.length - newest.length));
  });

  test('logs written by earlier builds page to the same chat', () => {
    for (const name of STORED_LOGS) {
      const file = writeLog(storedLogText(name));
      const events = readLogTolerantly(readFileSync(file)).events;
      for (const count of [1, 3, 10]) assert.deepEqual(allPages(file, count).messages, uiProjection(events), `${name}, pages of ${count}`);
    }
  });

  test('a damaged line in the middle and a torn last line are left out; everything else reads', () => {
    const events = varied().slice(0, 60);
    const lines = text(events).split('\n');
    lines[30] = '{"v":3,"type":"user_message","text":"cut he';
    const file = writeLog(`${lines.join('\n').replace(/\n$/, '')}\n{"v":3,"type":"tool_result","callId":"c`);
    const read = readLogTolerantly(readFileSync(file));
    assert.equal(read.events.length, 59);
    assert.equal(read.problems.length, 2);
    assert.match(read.problems[0]!, /^Line 31 of the log could not be read and is left out/);
    assert.match(read.problems[1]!, /last line was cut off/);
    assert.deepEqual(allPages(file, 3).messages, uiProjection(read.events));
  });

  test('lines longer than a read chunk, a file without a final newline, an empty file', () => {
    const long = `{"a":"${'y'.repeat(150_000)}"}`;
    const file = writeLog(`first\n${long}\n\nlast`);
    const reader = new BackwardLines(file, statSync(file).size);
    const seen: Array<[string, boolean]> = [];
    for (let line = reader.previous(); line; line = reader.previous()) seen.push([line.text.slice(0, 10), line.ended]);
    assert.deepEqual(seen, [
      ['last', false],
      ['', true],
      [long.slice(0, 10), true],
      ['first', true],
    ]);
    const empty = writeLog('');
    assert.equal(new BackwardLines(empty, 0).previous(), undefined);
    assert.deepEqual(allPages(empty, 5).messages, []);
  });

  test('only the bytes the reader was made for are read: lines appended meanwhile are not', () => {
    const events = varied().slice(0, 40);
    const file = writeLog(text(events));
    const size = statSync(file).size;
    appendFileSync(file, `${storedLine({ type: 'user_message', text: 'later', seq: 40, ts: 1 } as TaskEvent)}\n`);
    const pages = new ChatPages(file, size, false);
    const read: UiMessage[] = [];
    while (pages.more) read.unshift(...pages.older(5));
    assert.deepEqual(read, uiProjection(events));
  });
});
