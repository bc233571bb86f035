// An imported session written as a Smith task: whole or not at all, redacted, in the history, and
// saying in the chat what did not come along.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { importSession } from '../../../src/core/import/import-session.js';
import { ImportError } from '../../../src/core/import/import-types.js';
import { listStoredTasks, readTaskEvents } from '../../../src/core/log/task-log.js';
import { SecretRedactor } from '../../../src/core/secrets/secret-redactor.js';
import { apiProjection } from '../../../src/core/task/api-projection.js';
import { uiProjection } from '../../../src/core/task/ui-projection.js';
import { replayPlan } from '../../../src/core/replay/replay-plan.js';
import { ClaudeCodeSessionBuilder } from '../../helpers/foreign-sessions.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

const KEY = 'sk-ant-api03-SECRETSECRETSECRET';

let ws: TempWorkspace;
let storage: string;
beforeEach(() => {
  ws = createTempWorkspace('smith-import-ws-');
  storage = mkdtempSync(join(tmpdir(), 'smith-import-store-'));
});
afterEach(() => {
  ws.dispose();
  rmSync(storage, { recursive: true, force: true });
});

function sessionFile(cwd: string | undefined = ws.root): string {
  ws.write('a.txt', 'hello\n');
  const s = new ClaudeCodeSessionBuilder(cwd ?? '');
  s.user(`Use the key ${KEY} to call the API`);
  s.assistant([{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: `curl -H "x-api-key: ${KEY}" https://api.example.com` } }]);
  s.toolResult('toolu_1', '{"ok":true}');
  s.assistant([{ type: 'text', text: 'Called it.' }]);
  return s.write(join(ws.root, 'session.jsonl'));
}

describe('writing an imported task', () => {
  test('the task is in the history, its secrets redacted, with a checkpoint to replay from and a notice of what was left behind', async () => {
    const redactor = new SecretRedactor();
    redactor.set('provider', [KEY]);
    const result = await importSession({ path: sessionFile(), storageDir: storage, redactor, now: () => Date.parse('2026-01-05T10:00:00Z') });
    const [listed] = listStoredTasks(storage);
    assert.equal(listed?.taskId, result.taskId);
    assert.equal(listed.task, 'Use the key [REDACTED] to call the API');
    assert.equal(listed.cwd, ws.root);
    assert.equal(listed.status, 'completed');
    assert.equal(listed.snapshots.length, 1);
    const raw = readFileSync(join(storage, 'tasks', result.taskId, 'events.jsonl'), 'utf8');
    assert.ok(!raw.includes(KEY), 'no secret reaches the log');
    const events = readTaskEvents(storage, result.taskId);
    const started = events[0];
    assert.equal(started?.type, 'task_started');
    assert.deepEqual(started.type === 'task_started' && started.imported, {
      source: 'claude-code',
      path: join(ws.root, 'session.jsonl'),
      sessionId: '0d6c6b5e-2f6a-4c3e-9a53-7b1f0e8d2a11',
      notCarried: ['costs of 2 replies (not recorded; Smith shows no cost for them)'],
    });
    assert.deepEqual(result.notCarried, started.type === 'task_started' ? started.imported?.notCarried : undefined);
    // The task's time is the session's, not the import's.
    assert.equal(started.ts, Date.parse('2025-07-01T09:00:01.000Z'));
    const notice = uiProjection(events).find((m) => m.kind === 'notice');
    assert.deepEqual(notice && { text: notice.text, detail: 'detail' in notice ? notice.detail : undefined }, {
      text: `Imported from Claude Code (${join(ws.root, 'session.jsonl')}). Not carried over: 1 thing (see details).`,
      detail: '- costs of 2 replies (not recorded; Smith shows no cost for them)',
    });
    // The conversation the model will be sent, and the replay's starting point.
    const messages = apiProjection(events, { toolProtocol: 'native' });
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    const checkpoint = events.at(-1);
    assert.equal(checkpoint?.type, 'checkpoint_created');
    assert.equal(replayPlan(events).startRoot, checkpoint.type === 'checkpoint_created' ? checkpoint.root : undefined);
    assert.deepEqual(readdirSync(join(storage, 'import-staging')), [], 'nothing is left in staging');
  });

  test('a failure while writing leaves no task behind', async () => {
    let calls = 0;
    class FailingRedactor extends SecretRedactor {
      override redactDeep<T>(value: T): T {
        if (++calls > 3) throw new Error('disk full');
        return super.redactDeep(value);
      }
    }
    await assert.rejects(importSession({ path: sessionFile(), storageDir: storage, redactor: new FailingRedactor() }), /disk full/);
    assert.equal(existsSync(join(storage, 'tasks')) ? readdirSync(join(storage, 'tasks')).length : 0, 0);
    assert.deepEqual(readdirSync(join(storage, 'import-staging')), []);
    assert.deepEqual(listStoredTasks(storage), []);
  });

  test('a session that names no folder needs --cwd; a folder not on this machine means no checkpoint, said', async () => {
    const noFolder = sessionFile('');
    await assert.rejects(
      importSession({ path: noFolder, storageDir: storage }),
      (error: Error) => error instanceof ImportError && /name it with --cwd/.test(error.message),
    );
    assert.deepEqual(listStoredTasks(storage), []);
    const gone = await importSession({ path: sessionFile('/nowhere/on/this/machine'), storageDir: storage });
    assert.ok(
      gone.notCarried.includes(
        'a checkpoint of the workspace: /nowhere/on/this/machine is not a folder on this machine, so the task cannot be replayed until it runs again',
      ),
    );
    assert.equal(listStoredTasks(storage)[0]?.snapshots.length, 0);
    const without = await importSession({ path: sessionFile(), storageDir: storage, checkpoint: false });
    assert.ok(without.notCarried.some((line) => /turned off for this import/.test(line)));
  });
});
