// Cline's and Roo Code's task folders as Smith's events: the real files, made by the builder.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { readClineTask } from '../../../src/core/import/cline-task.js';
import { readSession } from '../../../src/core/import/import-session.js';
import { ImportError, type TimedEvent } from '../../../src/core/import/import-types.js';
import type { NewEvent } from '../../../src/core/log/events.js';
import { ClineTaskBuilder } from '../../helpers/foreign-sessions.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace('smith-import-');
});
afterEach(() => ws.dispose());

const ofType = <T extends NewEvent['type']>(events: readonly TimedEvent[], type: T) =>
  events.map((e) => e.event).filter((e): e is Extract<NewEvent, { type: T }> => e.type === type);

describe('Cline and Roo Code task folders', () => {
  test('maps the task, its mentions, the XML calls and their results, usage and cost, and the workspace', async () => {
    const t = new ClineTaskBuilder('/home/ana/shop');
    t.task("Fix 'a.txt' (see below for file content)", { attached: '<file_content path="a.txt">\nold\n</file_content>' });
    t.reply('<thinking>\nRead it first.\n</thinking>\n<read_file>\n<path>a.txt</path>\n</read_file>');
    t.result('read_file', 'a.txt', 'old');
    t.checkpoint();
    t.reply('<replace_in_file>\n<path>a.txt</path>\n<diff>\n------- SEARCH\nold\n=======\nnew\n+++++++ REPLACE\n</diff>\n</replace_in_file>', {
      tokensIn: 2000,
      tokensOut: 50,
      cacheReads: 300,
      cost: 0.01,
    });
    t.result('replace_in_file', 'a.txt', 'The content was successfully saved to a.txt.');
    t.reply('<attempt_completion>\n<result>a.txt now says new.</result>\n</attempt_completion>');
    t.feedback('Also say it in the README');
    t.reply('<write_to_file>\n<path>README.md</path>\n<content>\nnew\n</content>\n<line_count>1</line_count>\n</write_to_file>');
    t.result('write_to_file', 'README.md', 'The user denied this operation.\nThe user provided the following feedback:\n<feedback>\nnot now\n</feedback>');
    const read = readClineTask(t.write(ws.root), 'cline');

    assert.equal(read.source, 'cline');
    assert.equal(read.sessionId, t.taskId);
    assert.equal(read.cwd, '/home/ana/shop', 'the workspace comes from the first environment details');
    assert.equal(read.model, 'claude-3-7-sonnet-20250219');
    assert.equal(read.provider, 'anthropic');
    assert.equal(read.task.text, "Fix 'a.txt' (see below for file content)");
    assert.equal(read.task.context, '<file_content path="a.txt">\nold\n</file_content>');
    assert.deepEqual(
      ofType(read.events, 'tool_requested').map((r) => [r.tool, r.params, r.toolUseId]),
      [
        ['read_file', { path: 'a.txt' }, undefined],
        ['replace_in_file', { path: 'a.txt', diff: '------- SEARCH\nold\n=======\nnew\n+++++++ REPLACE' }, undefined],
        ['attempt_completion', { result: 'a.txt now says new.' }, undefined],
        ['write_to_file', { path: 'README.md', content: 'new' }, undefined],
      ],
    );
    assert.deepEqual(
      ofType(read.events, 'tool_result').map((r) => [r.tool, r.output]),
      [
        ['read_file', 'old'],
        ['replace_in_file', 'The content was successfully saved to a.txt.'],
      ],
    );
    assert.deepEqual(
      ofType(read.events, 'approval_answered').map((a) => [a.approved, a.feedback]),
      [
        [true, undefined],
        [true, undefined],
        [false, 'not now'],
      ],
    );
    assert.deepEqual(
      ofType(read.events, 'task_completed').map((e) => e.result),
      ['a.txt now says new.'],
    );
    assert.deepEqual(
      ofType(read.events, 'user_message').map((e) => e.text),
      ['Also say it in the README'],
    );
    const responses = ofType(read.events, 'model_response');
    assert.deepEqual(responses[0]!.blocks[0], { kind: 'thinking', text: 'Read it first.', partial: false });
    assert.deepEqual(responses[1]!.usage, { inputTokens: 2300, outputTokens: 50, cacheReadTokens: 300 });
    assert.equal(responses[1]!.cost, 0.01);
    // The environment details the agent sent go with the request they were sent with.
    const requests = ofType(read.events, 'request_started');
    assert.match(requests[0]!.environmentDetails, /# Current Working Directory \(\/home\/ana\/shop\) Files/);
    assert.ok(read.notCarried.includes("Cline's checkpoints: Smith has no checkpoint from before the import"));
  });

  test("Roo Code's tools: apply_diff is an edit, switch_mode has no Smith tool, native calls keep their ids", async () => {
    const t = new ClineTaskBuilder('/work/app', 'roo-code');
    t.task('Refactor');
    t.reply('<apply_diff>\n<path>src/x.ts</path>\n<diff>\n<<<<<<< SEARCH\n:start_line:3\n-------\na\n=======\nb\n>>>>>>> REPLACE\n</diff>\n</apply_diff>');
    t.result('apply_diff', 'src/x.ts', 'Changes applied.');
    t.reply('<switch_mode>\n<mode_slug>architect</mode_slug>\n<reason>plan first</reason>\n</switch_mode>');
    t.result('switch_mode', 'architect', 'Switched to architect mode.');
    t.nativeReply([{ type: 'tool_use', id: 'call_9', name: 'list_files', input: { path: 'src', recursive: true } }]);
    t.userBlocks([{ type: 'tool_result', tool_use_id: 'call_9', content: [{ type: 'text', text: 'src/x.ts' }] }]);
    const dir = t.write(ws.root);
    const read = await readSession(dir);
    assert.equal(read.source, 'roo-code', "a folder under Roo Code's extension id is Roo Code's");
    assert.equal(read.cwd, '/work/app');
    const requested = ofType(read.events, 'tool_requested');
    assert.deepEqual(
      requested.map((r) => [r.tool, r.params, r.toolUseId]),
      [
        ['replace_in_file', { path: 'src/x.ts', diff: '<<<<<<< SEARCH\n:start_line:3\n-------\na\n=======\nb\n>>>>>>> REPLACE' }, undefined],
        ['list_files', { path: 'src', recursive: 'true' }, 'call_9'],
      ],
    );
    assert.deepEqual(
      ofType(read.events, 'tool_result').map((r) => [r.callId, r.output]),
      [
        [requested[0]!.callId, 'Changes applied.'],
        ['call_9', 'src/x.ts'],
      ],
    );
    const summary = ofType(read.events, 'model_response')[1]!.text;
    assert.equal(
      summary,
      '[Roo Code called its switch_mode tool, which Smith does not have, with {"mode_slug":"architect","reason":"plan first"}\nResult:\nSwitched to architect mode.]',
    );
    assert.ok(read.notCarried.some((line) => /calls of Roo Code's switch_mode tool/.test(line)));
  });

  test('without ui_messages.json the tokens are listed as not carried; --cwd wins over the environment details', () => {
    const t = new ClineTaskBuilder('/from/details');
    t.task('Hi');
    t.reply('<attempt_completion>\n<result>Hello</result>\n</attempt_completion>');
    const read = readClineTask(t.write(ws.root, { ui: false, metadata: false }), 'cline', { cwd: '/given' });
    assert.equal(read.cwd, '/given');
    assert.equal(read.model, undefined);
    assert.ok(read.notCarried.includes('token counts and costs (the folder has no ui_messages.json)'));
  });

  test('malformed folders are refused with what is wrong', async () => {
    const dir = join(ws.root, 'task');
    mkdirSync(dir);
    writeFileSync(join(dir, 'api_conversation_history.json'), '[{"role":"user","content":[{"type":"text","text":"<task>\\nhi');
    assert.throws(
      () => readClineTask(dir, 'cline'),
      (error: Error) => error instanceof ImportError && /api_conversation_history\.json is not valid JSON/.test(error.message),
    );
    writeFileSync(join(dir, 'api_conversation_history.json'), '{"messages":[]}');
    assert.throws(() => readClineTask(dir, 'cline'), /is not a list of messages/);
    writeFileSync(join(dir, 'api_conversation_history.json'), '[{"role":"system","content":"x"}]');
    assert.throws(() => readClineTask(dir, 'cline'), /message 1 is not a user or assistant message/);
    writeFileSync(join(dir, 'api_conversation_history.json'), '[]');
    writeFileSync(join(dir, 'ui_messages.json'), '{}');
    assert.throws(() => readClineTask(dir, 'cline'), /ui_messages\.json is not a list of chat messages/);
    rmSync(join(dir, 'ui_messages.json'));
    assert.throws(() => readClineTask(dir, 'cline'), /holds no message from the user/);
    const other = join(ws.root, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'x');
    await assert.rejects(readSession(other), /neither a Claude Code session \(a \.jsonl file\) nor a Cline or Roo Code task folder/);
    await assert.rejects(readSession(join(ws.root, 'missing')), /does not exist/);
    await assert.rejects(readSession(dir, { from: 'claude-code' }), /a Claude Code session is a \.jsonl file/);
  });
});
