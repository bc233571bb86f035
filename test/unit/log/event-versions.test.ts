// Event versions: every line the log writes carries `v`; lines of older versions (no `v`) are
// upcast when the log is read. The logs in test/fixtures/logs were written by an earlier build and
// must keep opening, with the projections that build derived from them.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { apiProjection } from '../../../src/core/task/api-projection.js';
import type { ModelResponse } from '../../../src/core/log/conversation-events.js';
import { eventFromLine, storedLine } from '../../../src/core/log/stored-events.js';
import { TaskLog, listStoredTasks, readTaskEvents, taskDir } from '../../../src/core/log/task-log.js';
import { uiProjection } from '../../../src/core/task/ui-projection.js';
import { EVENT_VERSION, upcastLine } from '../../../src/core/log/upcast-events.js';
import { STORED_LOGS, asThatBuildShowed, installStoredLog, storedLogProjections, storedLogText } from '../../helpers/stored-logs.js';

describe('event versions', () => {
  let storage: string;
  beforeEach(() => (storage = mkdtempSync(join(tmpdir(), 'smith-versions-'))));
  afterEach(() => rmSync(storage, { recursive: true, force: true }));

  for (const name of STORED_LOGS) {
    test(`${name}: a log written before versions opens and projects as the build that wrote it did`, () => {
      installStoredLog(storage, name, 't');
      const events = TaskLog.open(storage, 't').events;
      const want = storedLogProjections(name);
      assert.deepEqual(asThatBuildShowed(uiProjection(events)), want.ui);
      assert.deepEqual(apiProjection(events), want.api);
      assert.deepEqual(apiProjection(events, { toolProtocol: 'native' }), want.apiNative);
      // The read-only path and the history see the same events.
      assert.deepEqual(readTaskEvents(storage, 't'), events);
      assert.equal(listStoredTasks(storage)[0]?.status, 'completed');
    });

    test(`${name}: every model reply reads back with the text the old line stored`, () => {
      const lines = storedLogText(name)
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const replies = lines.filter((line) => line.type === 'model_response');
      assert.ok(replies.length > 0);
      for (const line of replies) {
        const event = eventFromLine(line) as ModelResponse;
        assert.equal(event.text, line.text);
        assert.deepEqual(event.blocks, line.blocks);
        // Written again, it is stored once: the blocks, without the text they give.
        const rewritten = JSON.parse(storedLine(event));
        assert.equal(rewritten.v, EVENT_VERSION);
        assert.equal('text' in rewritten, false);
        assert.deepEqual(eventFromLine(rewritten), event);
      }
    });
  }

  test('appended lines carry the current version, and a log mixing versions reads as one', () => {
    installStoredLog(storage, 'v1-xml-task', 't');
    const log = TaskLog.open(storage, 't', () => 5);
    const before = log.events.length;
    log.append({ type: 'user_message', text: 'Once more.' });
    log.append({
      type: 'model_response',
      text: 'Sure.',
      reasoning: '',
      blocks: [{ kind: 'text', text: 'Sure.', partial: false }],
      usage: { inputTokens: 1, outputTokens: 1 },
    });
    const lines = readFileSync(log.file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(lines[0].v, undefined, 'the old lines are left as they were');
    assert.deepEqual(
      lines.slice(before).map((line) => line.v),
      [EVENT_VERSION, EVENT_VERSION],
    );
    assert.equal('text' in lines.at(-1), false);
    assert.deepEqual(TaskLog.open(storage, 't').events, log.events);
  });

  test('a version 1 reply whose text is not its blocks serialized keeps its text', () => {
    const line = {
      type: 'model_response',
      text: 'raw text as received',
      reasoning: '',
      blocks: [{ kind: 'text', text: 'raw', partial: false }],
      usage: { inputTokens: 0, outputTokens: 0 },
      seq: 1,
      ts: 1,
    };
    assert.equal((eventFromLine(line) as ModelResponse).text, 'raw text as received');
    assert.equal(JSON.parse(storedLine(eventFromLine(line))).text, 'raw text as received');
  });

  test('version 4 adds skill_loaded: a version 3 line reads unchanged, and a build reading only up to 3 would refuse a version 4 line', () => {
    const result = { type: 'tool_result', callId: 'c', tool: 'read_file', output: 'x', seq: 2, ts: 2 };
    assert.deepEqual(upcastLine({ ...result, v: 3 }), result);
    const loaded = {
      type: 'skill_loaded',
      callId: 'c',
      name: 'pdf',
      location: '.claude/skills',
      dir: '/w/.claude/skills/pdf',
      sha256: 'ab',
      rules: ['Read'],
      seq: 3,
      ts: 3,
    };
    assert.ok(EVENT_VERSION >= 4, 'skill_loaded came with version 4');
    assert.deepEqual(upcastLine({ ...loaded, v: 4 }), loaded);
  });

  test('a line from a newer Smith is refused with a clear error, naming the line', () => {
    assert.throws(() => upcastLine({ type: 'user_message', v: EVENT_VERSION + 1 }), /written by a newer Smith/);
    const dir = taskDir(storage, 'n');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'events.jsonl'), `${JSON.stringify({ v: EVENT_VERSION + 1, type: 'task_started', seq: 0, ts: 0 })}\n`);
    assert.throws(() => TaskLog.open(storage, 'n'), /cannot be read at line 1: event version \d+ was written by a newer Smith/);
  });
});
