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
const CONFLICT =
  /\[replace_in_file for 'notes.txt'\] Error:\nnotes\.txt was changed on disk since you last read or wrote it \(by the user or another program\), and your edit conflicts with those changes in 1 place \(edits are approved without asking, and a side is never picked without the user\), so nothing was written/;

describe("smith CLI: files changed behind the model's back", () => {
  const fx = useAgentFixture();

  test('an edit of a file the user changed after the read is merged into the change, and the model is told', async () => {
    fx.ws.write('notes.txt', 'todo: one\ntodo: two\ntodo: three\n');
    fx.server.enqueue(
      read('notes.txt'),
      () => {
        // The user saves the file while the model is thinking.
        fx.ws.write('notes.txt', 'todo: one\ntodo: two\ntodo: three (the user)\n');
        return replace('notes.txt', 'todo: one', 'done: one');
      },
      complete('Marked one done.'),
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Mark one done'] });
    assert.equal(run.code, 0, run.stderr);
    // Assertions on the recorded requests: a failed assertion inside a scripted reply only makes the server answer 500.
    const seen = fx.server.requests.map(lastUserText);
    assert.equal(seen.length, 3);
    assert.match(
      seen[2]!,
      /The file notes\.txt was saved successfully\.\n\nnotes\.txt was changed on disk since you last read or wrote it \(by the user or another program\)\. Those changes were kept and your edit was merged into them\./,
    );
    assert.match(seen[2]!, /\n-todo: three\n\+todo: three \(the user\)\n/);
    assert.equal(fx.ws.read('notes.txt'), 'done: one\ntodo: two\ntodo: three (the user)\n');
  });

  test('a conflicting edit in a run that approves edits without asking is refused with the conflict; the model reads again', async () => {
    fx.ws.write('notes.txt', 'todo: one\n');
    fx.server.enqueue(
      read('notes.txt'),
      () => {
        fx.ws.write('notes.txt', 'todo: one (the user)\n');
        return replace('notes.txt', 'todo: one', 'done: one');
      },
      read('notes.txt'),
      replace('notes.txt', 'todo: one (the user)', 'done: one (the user)'),
      complete('Marked one done.'),
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Mark one done'] });
    assert.equal(run.code, 0, run.stderr);
    const seen = fx.server.requests.map(lastUserText);
    assert.equal(seen.length, 5);
    assert.match(seen[2]!, CONFLICT);
    assert.match(seen[2]!, /<<<<<<<\ndone: one\n\|\|\|\|\|\|\|\ntodo: one\n=======\ntodo: one \(the user\)\n>>>>>>>/);
    assert.equal(fx.ws.read('notes.txt'), 'done: one (the user)\n');
  });

  test('a conflict is put to the user on the terminal: the hunks, a choice of side, then the usual approval', async () => {
    fx.ws.write('notes.txt', 'todo: one\ntodo: two\ntodo: three\n');
    fx.server.enqueue(
      read('notes.txt'),
      () => {
        fx.ws.write('notes.txt', 'todo: one (the user)\ntodo: two\ntodo: three\n');
        return reply(
          '<replace_in_file>\n<path>notes.txt</path>\n<diff>\n------- SEARCH\ntodo: one\n=======\ndone: one\n+++++++ REPLACE\n------- SEARCH\ntodo: three\n=======\ndone: three\n+++++++ REPLACE\n</diff>\n</replace_in_file>',
        );
      },
      complete('Done.'),
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--auto-approve', 'read', 'Mark them done'], answers: ['1', 'y'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /notes\.txt was changed since the model read it, and the model's edit conflicts with those changes in 1 place/);
    assert.match(run.stderr, /<<<<<<<\ndone: one\n\|\|\|\|\|\|\|\ntodo: one\n=======\ntodo: one \(the user\)\n>>>>>>>/);
    assert.match(run.stderr, /1\. Keep my version of the conflicting lines\n\s+2\. Take the model's version of the conflicting lines\n\s+3\. Reject the edit/);
    assert.match(run.stderr, /Edit notes\.txt \(\+1 -1\), merged into the changes made since Smith read it/);
    assert.equal(fx.ws.read('notes.txt'), 'todo: one (the user)\ntodo: two\ndone: three\n');
    assert.match(lastUserText(fx.server.requestAt(2)), /Where both changed the same lines \(1 place\), the user kept their version\./);
  });

  test('with nobody to answer, a conflict is refused and the model gets the hunks', async () => {
    fx.ws.write('notes.txt', 'todo: one\n');
    fx.server.enqueue(
      read('notes.txt'),
      () => {
        fx.ws.write('notes.txt', 'todo: one (the user)\n');
        return replace('notes.txt', 'todo: one', 'done: one');
      },
      complete('Left it.'),
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--auto-approve', 'read', 'Mark one done'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      lastUserText(fx.server.requestAt(2)),
      /conflicts with those changes in 1 place \(nobody could be asked which to keep\), so nothing was written/,
    );
    assert.equal(fx.ws.read('notes.txt'), 'todo: one (the user)\n');
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

  test('the record survives --resume: what was read stays known and kept, and a change made meanwhile is caught', { timeout: 60_000 }, async () => {
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
    assert.match(seen[2]!, CONFLICT);
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
