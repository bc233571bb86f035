import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ChildProcessRunner } from '../../../src/core/process/child-process-runner.js';
import { CommandSessions } from '../../../src/core/process/command-sessions.js';
import { APPROVE_ALL_POLICY, DEFAULT_POLICY } from '../../../src/core/log/approval-policy.js';
import type { ToolResultDetails } from '../../../src/core/log/tool-events.js';
import { askFollowupQuestionTool } from '../../../src/core/tools/ask-followup-question.js';
import { createExecuteCommandTool } from '../../../src/core/tools/execute-command.js';
import { listCodeDefinitionNamesTool } from '../../../src/core/tools/list-code-definition-names.js';
import { LIST_FILES_LIMIT, listFilesTool } from '../../../src/core/tools/list-files.js';
import { newRuleTool } from '../../../src/core/tools/new-rule.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { replaceInFileTool } from '../../../src/core/tools/replace-in-file.js';
import { searchFilesTool } from '../../../src/core/tools/search-files.js';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { writeToFileTool } from '../../../src/core/tools/write-to-file.js';
import { loadSmithIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const diff = (search: string, replace: string) => `------- SEARCH\n${search}\n=======\n${replace}\n+++++++ REPLACE`;

function detailsOf(outcome: ToolOutcome): ToolResultDetails {
  assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
  return (outcome.kind === 'result' && outcome.details) || {};
}

describe('the facts each tool records beside its text', () => {
  let ws: TempWorkspace;
  let harness: ToolHarness;
  beforeEach(() => {
    ws = createTempWorkspace();
    harness = new ToolHarness(ws.root);
    harness.policy = APPROVE_ALL_POLICY;
  });
  afterEach(() => ws.dispose());

  describe('execute_command', () => {
    let sessions: CommandSessions;
    beforeEach(() => {
      harness.processes = new ChildProcessRunner({ killGraceMs: 1000 });
      sessions = new CommandSessions();
    });
    afterEach(() => sessions.killAll());
    const run = (command: string, options: Parameters<typeof createExecuteCommandTool>[1] = {}, timeout?: string) =>
      harness.run(createExecuteCommandTool(sessions, { quietPeriodMs: 300, ...options }), {
        command,
        requires_approval: 'false',
        ...(timeout ? { timeout } : {}),
      });

    test('an exit: its code and its output without the labels the model reads', async () => {
      assert.deepEqual(detailsOf(await run('echo to-out; echo to-err >&2; exit 7')).command, {
        command: 'echo to-out; echo to-err >&2; exit 7',
        end: { kind: 'exited', exitCode: 7 },
        output: 'to-out\nto-err',
        truncated: false,
      });
      assert.deepEqual(detailsOf(await run('true')).command?.output, '');
    });

    test('a signal instead of an exit code', async () => {
      assert.deepEqual(detailsOf(await run('kill -9 $$')).command?.end, { kind: 'exited', exitCode: null, signal: 'SIGKILL' });
    });

    test('long output: the capped text the model got, marked truncated', async () => {
      const outcome = await run('seq 1 200000', { outputLimits: { headLines: 5, tailLines: 5, maxChars: 1000 } });
      const facts = detailsOf(outcome).command!;
      assert.equal(facts.truncated, true);
      assert.ok(facts.output.startsWith('1\n2\n3\n4\n5\n'), facts.output.slice(0, 40));
      assert.ok(facts.output.endsWith('199999\n200000') || facts.output.endsWith('200000'), facts.output.slice(-40));
      // The output in the facts is exactly the output in the model's text.
      assert.ok(outcome.kind === 'result' && outcome.output.endsWith(facts.output));
      assert.ok(facts.output.length < 1200);
    });

    test('a timeout and a command left running in the background', async () => {
      assert.deepEqual(detailsOf(await run('sleep 30', {}, '1')).command?.end, { kind: 'timed_out', timeoutSeconds: 1 });
      const background = detailsOf(await run('echo started; sleep 30')).command!;
      assert.deepEqual(background.end, { kind: 'backgrounded', sessionId: sessions.list()[0]!.id, by: 'quiet' });
      assert.equal(background.output, 'started');
    });

    test('paths .smithignore excludes that the command named', async () => {
      ws.write('.smithignore', 'secrets/\n');
      ws.write('secrets/key.txt', 'k\n');
      harness.ignore = await loadSmithIgnore(ws.root);
      harness.answers = [{ approved: true }];
      assert.deepEqual(detailsOf(await run('wc -l secrets/key.txt')).command?.ignoredPaths, ['secrets/key.txt']);
    });
  });

  describe('edits', () => {
    test('write_to_file of a new file: created, lines added, the hash of what was written, and the stamp', async () => {
      const details = detailsOf(await harness.run(writeToFileTool, { path: 'src/new.ts', content: 'a\nb\nc\n' }));
      assert.deepEqual(details.edit, { path: 'src/new.ts', added: 3, removed: 0, created: true, sha256After: sha('a\nb\nc\n') });
      assert.equal(details.file?.sha256, sha('a\nb\nc\n'));
    });

    test('replace_in_file: lines added and removed, hashes before and after', async () => {
      ws.write('notes.txt', 'one\ntwo\nthree\n');
      const details = detailsOf(await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('two', 'TWO\nTWO-B') }));
      assert.deepEqual(details.edit, {
        path: 'notes.txt',
        added: 2,
        removed: 1,
        created: false,
        sha256Before: sha('one\ntwo\nthree\n'),
        sha256After: sha('one\nTWO\nTWO-B\nthree\n'),
      });
    });

    test("the user's own change in the diff editor: the counts are of what landed", async () => {
      harness.policy = DEFAULT_POLICY;
      ws.write('notes.txt', 'one\ntwo\n');
      harness.answers = [{ approved: true, editedContent: 'one\nTWO\nextra\nmore\n' }];
      const details = detailsOf(await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('two', 'TWO') }));
      assert.equal(harness.asked[0]!.stats?.added, 1, 'the approval showed the proposal');
      assert.deepEqual(details.edit, {
        path: 'notes.txt',
        added: 3,
        removed: 1,
        created: false,
        sha256Before: sha('one\ntwo\n'),
        sha256After: sha('one\nTWO\nextra\nmore\n'),
        userEdited: true,
      });
    });

    test('no change: zero counts and equal hashes', async () => {
      ws.write('same.txt', 'x\n');
      await harness.run(readFileTool, { path: 'same.txt' });
      assert.deepEqual(detailsOf(await harness.run(writeToFileTool, { path: 'same.txt', content: 'x\n' })).edit, {
        path: 'same.txt',
        added: 0,
        removed: 0,
        created: false,
        sha256Before: sha('x\n'),
        sha256After: sha('x\n'),
      });
    });

    test('new_rule records its edit like the other edit tools', async () => {
      const edit = detailsOf(await harness.run(newRuleTool, { path: 'style.md', content: '# Style\n- tabs' })).edit;
      assert.equal(edit?.created, true);
      assert.equal(edit?.added, 2);
      assert.match(edit?.path ?? '', /style\.md$/);
    });
  });

  describe('reads, listings and searches', () => {
    test('read_file: the lines shown of how many, and whether less than asked came back', async () => {
      ws.write('ten.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
      assert.deepEqual(detailsOf(await harness.run(readFileTool, { path: 'ten.txt', start_line: '3', end_line: '5' })).read, {
        path: 'ten.txt',
        firstLine: 3,
        lastLine: 5,
        totalLines: 10,
        truncated: false,
      });
      assert.deepEqual(detailsOf(await harness.run(readFileTool, { path: 'ten.txt' })).read, {
        path: 'ten.txt',
        firstLine: 1,
        lastLine: 10,
        totalLines: 10,
        truncated: false,
      });
      ws.write('wide.txt', `${'x'.repeat(60_000)}\nshort\n`);
      assert.equal(detailsOf(await harness.run(readFileTool, { path: 'wide.txt' })).read?.truncated, true);
      ws.write('empty.txt', '');
      assert.deepEqual(detailsOf(await harness.run(readFileTool, { path: 'empty.txt' })).read, {
        path: 'empty.txt',
        firstLine: 0,
        lastLine: 0,
        totalLines: 0,
        truncated: false,
      });
    });

    test('list_files: how many entries, and whether the limit cut the listing', async () => {
      ws.write('src/a.ts', '');
      ws.write('src/b.ts', '');
      assert.deepEqual(detailsOf(await harness.run(listFilesTool, { path: 'src' })).list, { path: 'src', recursive: false, entries: 2, truncated: false });
      for (let i = 0; i <= LIST_FILES_LIMIT; i++) ws.write(`many/f${i}.txt`, '');
      const many = detailsOf(await harness.run(listFilesTool, { path: 'many', recursive: 'true' })).list;
      assert.deepEqual(many, { path: 'many', recursive: true, entries: LIST_FILES_LIMIT, truncated: true });
    });

    test('search_files: the regex, files and matches found', async () => {
      harness.ripgrep = 'rg';
      ws.write('src/a.ts', 'TODO one\nok\nTODO two\n');
      ws.write('src/b.ts', 'TODO three\n');
      ws.write('src/c.ts', 'nothing\n');
      assert.deepEqual(detailsOf(await harness.run(searchFilesTool, { path: 'src', regex: 'TODO' })).search, {
        path: 'src',
        query: 'TODO',
        files: 2,
        matches: 3,
        truncated: false,
      });
    });

    test('list_code_definition_names: files outlined and definitions found', async () => {
      ws.write('src/a.ts', 'export function one() {}\nexport class Two {}\n');
      ws.write('src/b.ts', 'export function three() {}\n');
      const outline = detailsOf(await harness.run(listCodeDefinitionNamesTool, { path: 'src' })).outline;
      assert.deepEqual(outline, { path: 'src', files: 2, definitions: 3, skipped: 0 });
    });
  });

  test('ask_followup_question: whether a user answered', async () => {
    assert.deepEqual(detailsOf(await harness.run(askFollowupQuestionTool, { question: 'Which?' })).question, { answered: false });
    harness.questionAnswer = 'this one';
    assert.deepEqual(detailsOf(await harness.run(askFollowupQuestionTool, { question: 'Which?' })).question, { answered: true });
  });
});
