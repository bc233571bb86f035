// Facts the UIs show are read once, where they arise, and logged typed: a follow-up question's
// options (parsed by the tool) and a browser result's console lines (with their level). Logs
// written before (version 2) are given them when read.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { ToolFacts } from '../../../src/shared/tool-details.js';
import { TaskLog, taskDir } from '../../../src/core/log/task-log.js';
import { uiProjection } from '../../../src/core/task/ui-projection.js';
import { EVENT_VERSION, upcastLine } from '../../../src/core/log/upcast-events.js';
import { askFollowupQuestionTool } from '../../../src/core/tools/ask-followup-question.js';
import { parseQuestionOptions } from '../../../src/shared/question-options.js';
import type { UiToolMessage } from '../../../src/shared/ui-messages.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

/** Writes `lines` as a task's log, as an older build left it. */
function writeLog(storage: string, taskId: string, lines: readonly object[]): void {
  const dir = taskDir(storage, taskId);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'events.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}

const started = { v: 2, type: 'task_started', seq: 0, ts: 1, taskId: 't', task: 'Go', cwd: '/w', provider: 'p', model: 'm', mode: 'act', modeSlug: 'code' };

function toolCards(storage: string, taskId: string): UiToolMessage[] {
  return uiProjection(TaskLog.open(storage, taskId).events).filter((m): m is UiToolMessage => m.kind === 'tool');
}

describe('question options', () => {
  let storage: string;
  beforeEach(() => (storage = mkdtempSync(join(tmpdir(), 'smith-facts-'))));
  afterEach(() => rmSync(storage, { recursive: true, force: true }));

  test('the one parser: a JSON array of 2 to 5 strings, or nothing; anything else says what is wrong', () => {
    assert.deepEqual(parseQuestionOptions('["vitest", "jest"]'), ['vitest', 'jest']);
    assert.deepEqual(parseQuestionOptions(' [" a ", "b"] '), [' a ', 'b']);
    assert.deepEqual(parseQuestionOptions(undefined), []);
    assert.deepEqual(parseQuestionOptions('  '), []);
    for (const raw of ['<option>a</option>\n<option>b</option>', 'a, b', '["a"]', '["a","b","c","d","e","f"]', '[1, 2]', '{"a": 1}', '"a"'])
      assert.ok(!Array.isArray(parseQuestionOptions(raw)), raw);
  });

  test('the tool logs the options it offered; the log keeps them and the chat shows them from there', async () => {
    const harness = new ToolHarness(storage);
    harness.questionAnswer = 'jest';
    const outcome = await harness.run(askFollowupQuestionTool, { question: 'Which?', options: '["vitest", "jest"]' });
    assert.equal(outcome.kind, 'result');
    const details = outcome.kind === 'result' ? outcome.details : undefined;
    assert.deepEqual(details?.question, { answered: true, options: ['vitest', 'jest'] });

    const log = TaskLog.create(storage, 't');
    log.append({ type: 'task_started', taskId: 't', task: 'Go', cwd: storage, provider: 'p', model: 'm', mode: 'act', modeSlug: 'code' });
    // The parameter the model wrote says otherwise: what the chat shows comes from the result only.
    log.append({ type: 'tool_requested', callId: 'c1', tool: 'ask_followup_question', params: { question: 'Which?', options: '["x", "y"]' } });
    log.append({ type: 'tool_result', callId: 'c1', tool: 'ask_followup_question', output: 'jest', ...(details ? { details } : {}) });
    const [card] = toolCards(storage, 't');
    assert.deepEqual(card?.details?.question, { answered: true, options: ['vitest', 'jest'] });
  });

  test('a call whose options cannot be read is a mistake and offers nothing', async () => {
    const harness = new ToolHarness(storage);
    const outcome = await harness.run(askFollowupQuestionTool, { question: 'Which?', options: '<option>a</option><option>b</option>' });
    assert.equal(outcome.kind, 'error');
    assert.match(outcome.kind === 'error' ? outcome.error : '', /options must be a JSON array of strings/);
  });

  test('a version 2 result is given the options its call offered, read from the call (or the hooks’ change of it)', () => {
    writeLog(storage, 'old', [
      started,
      {
        v: 2,
        type: 'tool_requested',
        seq: 1,
        ts: 1,
        callId: 'c1',
        tool: 'ask_followup_question',
        params: { question: 'Which?', options: '["vitest","jest"]' },
      },
      {
        v: 2,
        type: 'tool_result',
        seq: 2,
        ts: 1,
        callId: 'c1',
        tool: 'ask_followup_question',
        output: '<answer>\njest\n</answer>',
        details: { question: { answered: true } },
      },
      { v: 2, type: 'tool_requested', seq: 3, ts: 1, callId: 'c2', tool: 'ask_followup_question', params: { question: 'Port?', options: '["80","81"]' } },
      { v: 2, type: 'hooks_ran', seq: 4, ts: 1, event: 'PreToolUse', callId: 'c2', runs: [], input: { question: 'Port?', options: '["8080","3000"]' } },
      {
        v: 2,
        type: 'tool_result',
        seq: 5,
        ts: 1,
        callId: 'c2',
        tool: 'ask_followup_question',
        output: 'No user is available',
        details: { question: { answered: false } },
      },
      // Before question facts were logged; options no build could read are left out.
      { type: 'tool_requested', seq: 6, ts: 1, callId: 'c3', tool: 'ask_followup_question', params: { question: 'Go on?', options: '["Yes","No"]' } },
      { type: 'tool_result', seq: 7, ts: 1, callId: 'c3', tool: 'ask_followup_question', output: '<answer>\nYes\n</answer>' },
      {
        v: 2,
        type: 'tool_requested',
        seq: 8,
        ts: 1,
        callId: 'c4',
        tool: 'ask_followup_question',
        params: { question: 'Free?', options: '<option>a</option>' },
      },
      {
        v: 2,
        type: 'tool_result',
        seq: 9,
        ts: 1,
        callId: 'c4',
        tool: 'ask_followup_question',
        output: '<answer>\na\n</answer>',
        details: { question: { answered: true } },
      },
      { v: 2, type: 'tool_requested', seq: 10, ts: 1, callId: 'c5', tool: 'ask_followup_question', params: { question: 'Open?' } },
      {
        v: 2,
        type: 'tool_result',
        seq: 11,
        ts: 1,
        callId: 'c5',
        tool: 'ask_followup_question',
        output: '<answer>\nok\n</answer>',
        details: { question: { answered: true } },
      },
    ]);
    assert.deepEqual(
      toolCards(storage, 'old').map((card) => card.details?.question),
      [
        { answered: true, options: ['vitest', 'jest'] },
        { answered: false, options: ['8080', '3000'] },
        { answered: true, options: ['Yes', 'No'] },
        { answered: true },
        { answered: true },
      ],
    );
  });

  test('a current result is read as written: its options are never taken from the call', () => {
    writeLog(storage, 'new', [
      { ...started, v: EVENT_VERSION },
      {
        v: EVENT_VERSION,
        type: 'tool_requested',
        seq: 1,
        ts: 1,
        callId: 'c1',
        tool: 'ask_followup_question',
        params: { question: 'Q?', options: '["a","b"]' },
      },
      {
        v: EVENT_VERSION,
        type: 'tool_result',
        seq: 2,
        ts: 1,
        callId: 'c1',
        tool: 'ask_followup_question',
        output: 'x',
        details: { question: { answered: true } },
      },
    ]);
    assert.deepEqual(toolCards(storage, 'new')[0]?.details?.question, { answered: true });
  });
});

describe('console lines', () => {
  test('a version 2 browser result’s lines get the level the panel read from their prefix; the text stays', () => {
    const texts = [
      'log: app started (app.js:10)',
      'uncaught TypeError: x is not a function (app.js:11)',
      'error: Failed to load resource',
      'warning: deprecated',
      'info: ready',
      'debug: tick',
      'dialog (alert): hi — accepted',
      'blocked: http://example.com/: not allowed',
      'errors: a word that only starts so',
    ];
    for (const type of ['tool_result', 'tool_error'] as const) {
      const line = {
        v: 2,
        type,
        seq: 1,
        ts: 1,
        callId: 'c',
        tool: 'browser_action',
        output: '',
        error: '',
        mistake: false,
        details: { browser: { action: 'launch', console: texts, screenshot: false } },
      };
      const event = upcastLine(line) as { details?: ToolFacts };
      assert.deepEqual(event.details?.browser?.console, [
        { level: 'log', text: texts[0] },
        { level: 'error', text: texts[1] },
        { level: 'error', text: texts[2] },
        { level: 'warn', text: texts[3] },
        { level: 'info', text: texts[4] },
        { level: 'debug', text: texts[5] },
        { level: 'log', text: texts[6] },
        { level: 'log', text: texts[7] },
        { level: 'log', text: texts[8] },
      ]);
    }
  });

  test('current lines, and results without browser facts, are left as they are', () => {
    const current = {
      type: 'tool_result',
      seq: 1,
      ts: 1,
      callId: 'c',
      tool: 'browser_action',
      output: '',
      details: { browser: { action: 'click', console: [{ level: 'warn', text: 'error: looks bad' }], screenshot: false } },
    };
    assert.deepEqual(upcastLine({ ...current, v: EVENT_VERSION }), current);
    const plain = {
      v: 2,
      type: 'tool_result',
      seq: 1,
      ts: 1,
      callId: 'c',
      tool: 'read_file',
      output: 'x',
      details: { read: { path: 'a', firstLine: 1, lastLine: 1, totalLines: 1, truncated: false } },
    };
    const { v: _v, ...shape } = plain;
    assert.deepEqual(upcastLine(plain), shape);
  });
});
