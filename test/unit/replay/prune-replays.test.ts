import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { pruneReplays } from '../../../src/core/replay/prune-replays.js';

describe('old replays are deleted', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'smith-replays-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  function replay(id: string, finished: boolean, ageMs = 0): void {
    const dir = join(folder, id);
    mkdirSync(join(dir, 'workspace'), { recursive: true });
    if (finished) writeFileSync(join(dir, 'comparison.json'), '{}');
    const when = (Date.now() - ageMs) / 1000;
    utimesSync(dir, when, when);
  }

  test('the newest are kept; an older finished one goes, a running one stays unless a day old', () => {
    replay('20260101T000000-aaaaaa', true);
    replay('20260102T000000-bbbbbb', false);
    replay('20260103T000000-cccccc', false, 2 * 24 * 60 * 60 * 1000);
    replay('20260104T000000-dddddd', true);
    replay('20260105T000000-eeeeee', false);
    writeFileSync(join(folder, 'notes.txt'), 'not a replay');
    pruneReplays(folder, Date.now(), 2);
    assert.deepEqual(readdirSync(folder).sort(), ['20260102T000000-bbbbbb', '20260104T000000-dddddd', '20260105T000000-eeeeee', 'notes.txt']);
  });

  test('fewer than the limit, or no folder at all: nothing happens', () => {
    replay('20260101T000000-aaaaaa', true);
    pruneReplays(folder, Date.now(), 2);
    assert.deepEqual(readdirSync(folder), ['20260101T000000-aaaaaa']);
    assert.doesNotThrow(() => pruneReplays(join(folder, 'missing'), Date.now()));
  });
});
