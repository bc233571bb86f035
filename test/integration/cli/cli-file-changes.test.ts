import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli, spawnCli } from '../../helpers/cli-runner.js';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';

const reply = (text: string) => ({ text });
const read = (path: string) => reply(`<read_file>\n<path>${path}</path>\n</read_file>`);
const replace = (path: string, search: string, replacement: string) =>
  reply(`<replace_in_file>\n<path>${path}</path>\n<diff>\n------- SEARCH\n${search}\n=======\n${replacement}\n+++++++ REPLACE\n</diff>\n</replace_in_file>`);
const write = (path: string, content: string) => reply(`<write_to_file>\n<path>${path}</path>\n<content>\n${content}</content>\n</write_to_file>`);
const complete = (result: string) => reply(`<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`);
const CHANGED =
  /\[replace_in_file for 'notes.txt'\] Error:\nnotes\.txt was changed on disk since you last read or wrote it \(by the user or another program\), so your edit was not applied and the file keeps those changes\. Read it again with read_file/;

describe("smith CLI: files changed behind the model's back", () => {
  const fx = useAgentFixture();

  test('an edit of a file the user changed after the read is refused; the model reads again and its edit keeps the change', async () => {
    fx.ws.write('notes.txt', 'todo: one\n');
    fx.server.enqueue(
      read('notes.txt'),
      () => {
        // The user saves the file while the model is thinking.
        fx.ws.write('notes.txt', 'todo: one\ntodo: two (the user)\n');
        return replace('notes.txt', 'todo: one', 'done: one');
      },
      read('notes.txt'),
      replace('notes.txt', 'todo: one', 'done: one'),
      complete('Marked one done.'),
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Mark one done'] });
    assert.equal(run.code, 0, run.stderr);
    // Assertions on the recorded requests: a failed assertion inside a scripted reply only makes the server answer 500.
    const seen = fx.server.requests.map(lastUserText);
    assert.equal(seen.length, 5);
    assert.match(seen[2]!, CHANGED);
    assert.match(seen[3]!, /2 \| todo: two \(the user\)/);
    assert.match(seen[4]!, /The file notes\.txt was saved successfully/);
    assert.equal(fx.ws.read('notes.txt'), 'done: one\ntodo: two (the user)\n');
  });

  test('write_to_file over a file the model never read is refused until it reads it', async () => {
    fx.ws.write('config.json', '{ "keep": true }\n');
    fx.server.enqueue(write('config.json', '{}\n'), read('config.json'), write('config.json', '{ "keep": true, "more": 1 }\n'), complete('Updated.'));
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Update the config'] });
    assert.equal(run.code, 0, run.stderr);
    const seen = fx.server.requests.map(lastUserText);
    assert.equal(seen.length, 4);
    assert.match(seen[1]!, /config\.json already exists and you have not read it in this task, so it was not overwritten\. Read it with read_file first/);
    assert.match(seen[2]!, /1 \| \{ "keep": true \}/);
    assert.equal(fx.ws.read('config.json'), '{ "keep": true, "more": 1 }\n');
  });

  test('the record survives --resume: what was read stays known, and a change made meanwhile is caught', { timeout: 60_000 }, async () => {
    fx.ws.write('kept.txt', 'kept\n');
    fx.ws.write('notes.txt', 'one\n');
    fx.server.enqueue(read('kept.txt'), read('notes.txt'), { fault: 'hang' });
    const args = [...fx.cliArgs(), '--yes'];
    const { child, done } = spawnCli({ args: [...args, 'Tidy the files'] });
    for (let waited = 0; fx.server.requests.length < 3; waited += 50) {
      assert.ok(waited < 30_000, 'the CLI never made its third request');
      await sleep(50);
    }
    child.kill('SIGKILL');
    await done;
    const [taskId] = readdirSync(join(fx.storage, 'tasks'));
    assert.ok(taskId);
    const logged = readFileSync(join(fx.storage, 'tasks', taskId, 'events.jsonl'), 'utf8');
    assert.match(logged, /"type":"tool_result"[^\n]*"details":\{"file":\{"path":"[^"]*notes\.txt","size":4,/);

    fx.ws.write('notes.txt', 'one\nadded while the task was stopped\n');
    const before = fx.server.requests.length;
    fx.server.enqueue(write('kept.txt', 'rewritten\n'), replace('notes.txt', 'one', 'ONE'), complete('Stopped: notes.txt changed.'));
    const resumed = await runCli({ args: [...args, '--resume', taskId] });
    assert.equal(resumed.code, 0, resumed.stderr);
    const seen = fx.server.requests.slice(before).map(lastUserText);
    assert.equal(seen.length, 3);
    assert.match(seen[1]!, /The file kept\.txt was saved successfully/);
    assert.match(seen[2]!, CHANGED);
    assert.equal(fx.ws.read('kept.txt'), 'rewritten\n');
    assert.equal(fx.ws.read('notes.txt'), 'one\nadded while the task was stopped\n');
  });

  test('write_to_file keeps a BOM and CRLF endings, and empty content makes an empty file', async () => {
    fx.ws.write('win.txt', '\uFEFFold\r\nlines\r\n');
    fx.server.enqueue(
      read('win.txt'),
      write('win.txt', 'new\nlines\n'),
      reply('<write_to_file>\n<path>empty.txt</path>\n<content>\n</content>\n</write_to_file>'),
      complete('Done.'),
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Rewrite'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.ws.read('win.txt'), '\uFEFFnew\r\nlines\r\n');
    assert.equal(fx.ws.readBytes('empty.txt').byteLength, 0);
    assert.match(lastUserText(fx.server.requestAt(3)), /The file empty\.txt was created successfully/);
  });

  test('a FIFO in the workspace is refused at once and the task goes on', { timeout: 60_000 }, async () => {
    execFileSync('mkfifo', [join(fx.ws.root, 'events.pipe')]);
    fx.server.enqueue(read('events.pipe'), complete('It is a pipe.'));
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Read the pipe'], timeoutMs: 50_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.server.requests.length, 2);
    assert.match(lastUserText(fx.server.requestAt(1)), /events\.pipe is a named pipe \(FIFO\), not a regular file/);
    assert.equal(run.stdout, 'It is a pipe.\n');
  });
});
