// Version 5 named the persona a task runs as its mode (`modeSlug`); logs written when it was its
// skill (version 4 and before) must open with the same mode, and Plan/Act must not move.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { TaskLog, taskDir } from '../../../src/core/log/task-log.js';
import { EVENT_VERSION, upcastLine } from '../../../src/core/log/upcast-events.js';
import { apiProjection } from '../../../src/core/task/api-projection.js';
import { currentPlanActAndMode } from '../../../src/core/task/turn-setup.js';
import { uiProjection } from '../../../src/core/task/ui-projection.js';

const started = { type: 'task_started', seq: 0, ts: 1, taskId: 't', task: 'Go', cwd: '/w', provider: 'anthropic', model: 'm', mode: 'plan' };

describe('mode events across versions', () => {
  test('a version 4 task_started (Agent Skills came in version 4, modes did not) is brought over too', () => {
    assert.equal(upcastLine({ v: 4, ...started, skill: 'ask' }).modeSlug, 'ask');
    assert.deepEqual(upcastLine({ v: 4, type: 'skill_switched', seq: 3, ts: 2, skill: 'code' }), {
      type: 'mode_slug_switched',
      seq: 3,
      ts: 2,
      modeSlug: 'code',
    });
  });

  test('a version 3 task_started names its mode in modeSlug; its Plan/Act stays', () => {
    assert.equal(EVENT_VERSION, 6);
    const line = upcastLine({ v: 3, ...started, skill: 'architect' });
    assert.equal(line.modeSlug, 'architect');
    assert.equal(line.mode, 'plan');
    assert.equal('skill' in line, false);
    // A line without a version (version 1) goes through every step.
    assert.equal(upcastLine({ ...started, skill: 'ask' }).modeSlug, 'ask');
  });

  test('a version 3 skill_switched becomes mode_slug_switched; mode_switched is Plan/Act and untouched', () => {
    assert.deepEqual(upcastLine({ v: 3, type: 'skill_switched', seq: 3, ts: 2, skill: 'ask' }), { type: 'mode_slug_switched', seq: 3, ts: 2, modeSlug: 'ask' });
    assert.deepEqual(upcastLine({ v: 3, type: 'mode_switched', seq: 4, ts: 2, mode: 'act' }), { type: 'mode_switched', seq: 4, ts: 2, mode: 'act' });
  });

  test('a current line is read as written', () => {
    const line = { v: 6, type: 'mode_slug_switched', seq: 3, ts: 2, modeSlug: 'ask' };
    assert.deepEqual(upcastLine(line), { type: 'mode_slug_switched', seq: 3, ts: 2, modeSlug: 'ask' });
  });

  test('an old log opens in the mode it was switched to, and the model and the chat are told as before', () => {
    const storage = mkdtempSync(join(tmpdir(), 'smith-mode-upcast-'));
    try {
      mkdirSync(taskDir(storage, 't'), { recursive: true });
      const lines = [
        { v: 3, ...started, skill: 'code' },
        { v: 3, type: 'skill_switched', seq: 1, ts: 2, skill: 'architect' },
        { v: 3, type: 'mode_switched', seq: 2, ts: 3, mode: 'act' },
      ];
      writeFileSync(join(taskDir(storage, 't'), 'events.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
      const events = TaskLog.open(storage, 't').events;
      assert.deepEqual(currentPlanActAndMode(events), { mode: 'act', modeSlug: 'architect' });
      const notices = uiProjection(events).filter((m) => m.kind === 'notice');
      assert.ok(
        notices.some((m) => m.kind === 'notice' && m.text === 'Switched to the architect mode.'),
        JSON.stringify(notices),
      );
      const sent = JSON.stringify(apiProjection(events));
      assert.match(sent, /The user switched to the \\"architect\\" mode\./);
    } finally {
      rmSync(storage, { recursive: true, force: true });
    }
  });
});
