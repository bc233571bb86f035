import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { CheckpointStore } from '../../../src/core/checkpoints/checkpoint-store.js';
import { APPROVE_ALL_POLICY } from '../../../src/core/log/approval-policy.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { replaceInFileTool } from '../../../src/core/tools/replace-in-file.js';
import { CONFLICT_CHOICES } from '../../../src/core/tool-kit/stale-edit-merge.js';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { writeToFileTool } from '../../../src/core/tools/write-to-file.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const diff = (search: string, replace: string) => `------- SEARCH\n${search}\n=======\n${replace}\n+++++++ REPLACE`;
const errorOf = (outcome: ToolOutcome) => (outcome.kind === 'error' ? outcome.error : `not an error: ${JSON.stringify(outcome)}`);
const outputOf = (outcome: ToolOutcome) => (outcome.kind === 'result' ? outcome.output : `not a result: ${JSON.stringify(outcome)}`);
const CHANGED = /^notes\.txt was changed on disk since you last read or wrote it \(by the user or another program\), so your edit was not applied/;
const ORIGINAL = 'one\ntwo\nthree\nfour\nfive\nsix\n';

describe('an edit of a file the user changed since the read is merged into it', () => {
  let ws: TempWorkspace;
  let storage: string;
  let harness: ToolHarness;
  const openStore = () => new CheckpointStore({ storageDir: storage, workspaceRoot: ws.root, ignore: NOTHING_IGNORED });
  beforeEach(() => {
    ws = createTempWorkspace();
    storage = mkdtempSync(join(tmpdir(), 'smith-merge-storage-'));
    harness = new ToolHarness(ws.root);
    harness.policy = APPROVE_ALL_POLICY;
    harness.fileVersions = openStore().versions;
  });
  afterEach(() => {
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });

  async function readThenUserEdits(before: string, after: string): Promise<void> {
    ws.write('notes.txt', before);
    assert.equal((await harness.run(readFileTool, { path: 'notes.txt' })).kind, 'result');
    ws.write('notes.txt', after);
  }

  for (const [name, tool, params] of [
    ['replace_in_file', replaceInFileTool, { diff: diff('three', 'THREE (model)') }],
    ['write_to_file', writeToFileTool, { content: ORIGINAL.replace('three', 'THREE (model)') }],
  ] as const) {
    test(`${name}: a change away from the edit is kept, and the model is told what changed`, async () => {
      await readThenUserEdits(ORIGINAL, `user top\n${ORIGINAL.replace('six', 'six (user)')}`);
      const outcome = await harness.run(tool, { path: 'notes.txt', ...params });
      assert.equal(ws.read('notes.txt'), 'user top\none\ntwo\nTHREE (model)\nfour\nfive\nsix (user)\n');
      const output = outputOf(outcome);
      assert.match(output, /^The file notes\.txt was saved successfully\./);
      assert.match(
        output,
        /changed on disk since you last read or wrote it \(by the user or another program\)\. Those changes were kept and your edit was merged into them\./,
      );
      assert.match(output, /\n\+user top\n/);
      assert.match(output, /\n-six\n\+six \(user\)\n/);
      assert.deepEqual(outcome.kind === 'result' && outcome.details?.edit?.merged, { conflicts: 0 });
      // The stamp is of the merged file: a further edit goes through as usual.
      assert.equal((await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('four', 'FOUR') })).kind, 'result');
      assert.match(ws.read('notes.txt'), /\nFOUR\n/);
    });
  }

  test('the merged file is shown as the usual diff for approval: from the file as it is to the merge', async () => {
    harness.policy = { ...APPROVE_ALL_POLICY, editFiles: false };
    await readThenUserEdits(ORIGINAL, ORIGINAL.replace('six', 'six (user)'));
    harness.answers = [{ approved: true }];
    await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('two', 'TWO') });
    assert.equal(harness.asked.length, 1);
    const asked = harness.asked[0]!;
    assert.match(asked.summary, /^Edit notes\.txt \(\+1 -1\), merged into the changes made since Smith read it$/);
    assert.deepEqual(asked.proposal, {
      original: ORIGINAL.replace('six', 'six (user)'),
      proposed: 'one\nTWO\nthree\nfour\nfive\nsix (user)\n',
      isNewFile: false,
    });
    assert.match(asked.diff ?? '', /\n-two\n\+TWO\n/);
    assert.doesNotMatch(asked.diff ?? '', /six/);
  });

  test("line endings and a BOM the user changed are kept; the model's edit lands in them", async () => {
    await readThenUserEdits(ORIGINAL.replace(/\n/g, '\r\n'), `\uFEFF${ORIGINAL}seven\n`);
    assert.equal((await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('two', 'TWO') })).kind, 'result');
    assert.equal(ws.read('notes.txt'), `\uFEFFone\nTWO\nthree\nfour\nfive\nsix\nseven\n`);
  });

  test('the same change made by the user and the model is no conflict', async () => {
    await readThenUserEdits(ORIGINAL, ORIGINAL.replace('two', 'TWO').replace('six', 'six (user)'));
    const outcome = await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('two', 'TWO') });
    assert.equal(outcome.kind, 'result');
    assert.equal(ws.read('notes.txt'), ORIGINAL.replace('two', 'TWO').replace('six', 'six (user)'));
  });

  test('a SEARCH that matches only text the user added is refused, not applied to text the model never saw', async () => {
    await readThenUserEdits(ORIGINAL, `${ORIGINAL}added by the user\n`);
    const outcome = await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('added by the user', 'changed by the model') });
    assert.match(errorOf(outcome), /^notes\.txt was changed on disk since you last read or wrote it .*, and your edit does not apply to the version you read/);
    assert.equal(ws.read('notes.txt'), `${ORIGINAL}added by the user\n`);
  });

  describe('conflicts', () => {
    const conflicting = () => readThenUserEdits(ORIGINAL, ORIGINAL.replace('three', 'three (user)').replace('six', 'six (user)'));
    const modelEdit = { path: 'notes.txt', diff: `${diff('one', 'ONE (model)')}\n${diff('three\nfour', 'THREE (model)\nFOUR (model)')}` };

    test('with edits approved without asking, nothing is written and the model gets the conflicts; no side is picked', async () => {
      await conflicting();
      const outcome = await harness.run(replaceInFileTool, modelEdit);
      const error = errorOf(outcome);
      assert.match(
        error,
        /^notes\.txt was changed on disk since you last read or wrote it .*, and your edit conflicts with those changes in 1 place \(edits are approved without asking/,
      );
      assert.match(error, /<<<<<<<\nTHREE \(model\)\nFOUR \(model\)\n\|\|\|\|\|\|\|\nthree\nfour\n=======\nthree \(user\)\nfour\n>>>>>>>/);
      assert.equal(ws.read('notes.txt'), ORIGINAL.replace('three', 'three (user)').replace('six', 'six (user)'));
      assert.equal(harness.questions.length, 0);
    });

    test('when the user is asked: their choice of side, then the usual approval of the whole result', async () => {
      harness.policy = { ...APPROVE_ALL_POLICY, editFiles: false };
      for (const [choice, expected] of [
        [CONFLICT_CHOICES.user, 'ONE (model)\ntwo\nthree (user)\nfour\nfive\nsix (user)\n'],
        [CONFLICT_CHOICES.model, 'ONE (model)\ntwo\nTHREE (model)\nFOUR (model)\nfive\nsix (user)\n'],
      ] as const) {
        await conflicting();
        harness.questionAnswer = choice;
        harness.answers = [{ approved: true }];
        harness.questions.length = 0;
        const outcome = await harness.run(replaceInFileTool, modelEdit);
        assert.equal(harness.questions.length, 1);
        assert.deepEqual(harness.questions[0]!.options, Object.values(CONFLICT_CHOICES));
        assert.match(
          harness.questions[0]!.question,
          /^notes\.txt was changed since the model read it, and the model's edit conflicts with those changes in 1 place/,
        );
        assert.match(harness.questions[0]!.question, /=======\nthree \(user\)\nfour\n>>>>>>>/);
        // In a code fence: the panel renders questions as Markdown, where ======= under a line would make a heading.
        assert.match(harness.questions[0]!.question, /\n```\n@@ at line 3 of the version read @@\n<<<<<<<\n[\s\S]*\n>>>>>>>\n```\n/);
        assert.equal(ws.read('notes.txt'), expected);
        assert.equal(outcome.kind === 'result' && outcome.details?.edit?.merged?.resolution, choice === CONFLICT_CHOICES.user ? 'user' : 'model');
        assert.match(outputOf(outcome), choice === CONFLICT_CHOICES.user ? /the user kept their version/ : /the user took your version/);
      }
    });

    test('rejecting, answering with other words, or nobody to answer writes nothing', async () => {
      harness.policy = { ...APPROVE_ALL_POLICY, editFiles: false };
      const userVersion = ORIGINAL.replace('three', 'three (user)').replace('six', 'six (user)');
      await conflicting();
      harness.questionAnswer = CONFLICT_CHOICES.reject;
      assert.deepEqual(await harness.run(replaceInFileTool, modelEdit), { kind: 'rejected' });
      harness.questionAnswer = 'keep line three as I wrote it';
      assert.deepEqual(await harness.run(replaceInFileTool, modelEdit), { kind: 'rejected', feedback: 'keep line three as I wrote it' });
      harness.questionAnswer = undefined;
      assert.match(errorOf(await harness.run(replaceInFileTool, modelEdit)), /conflicts with those changes in 1 place \(nobody could be asked which to keep\)/);
      assert.equal(ws.read('notes.txt'), userVersion);
      assert.equal(harness.asked.length, 0);
    });
  });

  describe('refused as before, never merged wrongly', () => {
    test('without a store of versions, or when the version read is gone from it', async () => {
      harness.fileVersions = undefined;
      await readThenUserEdits(ORIGINAL, `${ORIGINAL}seven\n`);
      assert.match(errorOf(await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('two', 'TWO') })), CHANGED);
      // Read with no store: the version read was never kept, so a store now cannot give it back.
      harness.fileVersions = openStore().versions;
      assert.match(errorOf(await harness.run(writeToFileTool, { path: 'notes.txt', content: 'replaced\n' })), CHANGED);
      assert.equal(ws.read('notes.txt'), `${ORIGINAL}seven\n`);
    });

    test('a version kept by an earlier run of Smith (a resumed task) is found again', async () => {
      await readThenUserEdits(ORIGINAL, `${ORIGINAL}seven\n`);
      harness.fileVersions = openStore().versions;
      assert.equal((await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('two', 'TWO') })).kind, 'result');
      assert.equal(ws.read('notes.txt'), `one\nTWO\nthree\nfour\nfive\nsix\nseven\n`);
    });

    test('a file bigger than the store keeps is not merged', async () => {
      harness.fileVersions = new CheckpointStore({ storageDir: storage, workspaceRoot: ws.root, ignore: NOTHING_IGNORED, maxFileBytes: 10 }).versions;
      await readThenUserEdits(ORIGINAL, `${ORIGINAL}seven\n`);
      assert.match(errorOf(await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('two', 'TWO') })), CHANGED);
    });

    test('a file the user replaced with a symbolic link is the link target: an edit of a file the model never read, never a merge', async () => {
      await readThenUserEdits(ORIGINAL, ORIGINAL);
      const elsewhere = join(storage, 'elsewhere.txt');
      writeFileSync(elsewhere, `${ORIGINAL}secret\n`);
      unlinkSync(join(ws.root, 'notes.txt'));
      symlinkSync(elsewhere, join(ws.root, 'notes.txt'));
      harness.answers = [{ approved: false }];
      assert.equal((await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('two', 'TWO') })).kind, 'rejected');
      assert.match(harness.asked[0]!.summary, /^Edit .*elsewhere\.txt \(\+1 -1\)$/);
      assert.match(
        errorOf(await harness.run(writeToFileTool, { path: 'notes.txt', content: ORIGINAL })),
        /already exists and you have not read it in this task/,
      );
      assert.equal(ws.read('notes.txt'), `${ORIGINAL}secret\n`);
    });

    test('a file deleted, turned into a folder, or made binary', async () => {
      await readThenUserEdits(ORIGINAL, ORIGINAL);
      unlinkSync(join(ws.root, 'notes.txt'));
      assert.match(errorOf(await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('two', 'TWO') })), /^File not found: notes\.txt/);
      ws.write('notes.txt/inside.txt', 'x\n');
      assert.match(errorOf(await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('two', 'TWO') })), /notes\.txt is a directory/);
      rmSync(join(ws.root, 'notes.txt'), { recursive: true });
      ws.write('notes.txt', Buffer.from([0x6f, 0x6e, 0x65, 0x00, 0x0a]) as unknown as string);
      assert.match(errorOf(await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('two', 'TWO') })), /notes\.txt is a binary file/);
    });

    test('changes too large to merge', async () => {
      const lines = Array.from({ length: 3000 }, (_, i) => `line ${i}`);
      await readThenUserEdits(`${lines.join('\n')}\n`, `${lines.map((l, i) => (i % 2 ? `${l} user` : l)).join('\n')}\n`);
      const outcome = await harness.run(writeToFileTool, { path: 'notes.txt', content: `${lines.map((l, i) => (i % 2 ? l : `${l} model`)).join('\n')}\n` });
      assert.match(errorOf(outcome), /and the changes on both sides are too large to merge, so your edit was not applied/);
    });
  });
});
