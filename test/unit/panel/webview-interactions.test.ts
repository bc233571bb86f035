// Approvals answered from the panel: the approval is offered as soon as the request is complete,
// without waiting for the diff editor, and the answer reaches the review only after it opened.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EditReview } from '../../../src/panel/panel-ports.js';
import { WebviewInteractions } from '../../../src/panel/webview-interactions.js';

function slowReview() {
  const steps: string[] = [];
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  const review: EditReview = {
    streamPartial: () => {},
    present: async (path) => {
      steps.push(`present ${path}`);
      await opened;
      steps.push('opened');
    },
    accept: async () => {
      steps.push('accept');
      return { editedContent: 'edited\n' };
    },
    reject: async () => void steps.push('reject'),
    discard: async () => {},
  };
  return { review, steps, open };
}

const request = {
  callId: 'c1',
  tool: 'replace_in_file',
  summary: 'Edit a.ts',
  path: 'a.ts',
  proposal: { original: 'a\n', proposed: 'b\n', isNewFile: false },
};

describe('WebviewInteractions', () => {
  test('the approval is pending while the diff editor is still opening; approving waits for it, then accepts', async () => {
    const { review, steps, open } = slowReview();
    const interactions = new WebviewInteractions(review, () => '/w');
    const answer = interactions.approvals.ask(request, new AbortController().signal);
    await Promise.resolve();
    assert.equal(interactions.pendingApproval?.callId, 'c1', 'the approval waited for the diff editor');
    assert.deepEqual(steps, ['present /w/a.ts']);
    interactions.answerApproval('c1', true);
    await Promise.resolve();
    assert.deepEqual(steps, ['present /w/a.ts'], 'accepted before the review had opened');
    open();
    assert.deepEqual(await answer, { approved: true, editedContent: 'edited\n' });
    assert.deepEqual(steps, ['present /w/a.ts', 'opened', 'accept']);
  });

  test('a diff editor that fails to open is reported; the decision goes on from the panel', async () => {
    const problems: string[] = [];
    const review: EditReview = { ...slowReview().review, present: async () => Promise.reject(new Error('no editor')) };
    const interactions = new WebviewInteractions(
      review,
      () => '/w',
      (message) => problems.push(message),
    );
    const answer = interactions.approvals.ask(request, new AbortController().signal);
    await Promise.resolve();
    interactions.answerApproval('c1', false, 'not now');
    assert.deepEqual(await answer, { approved: false, feedback: 'not now' });
    assert.deepEqual(problems, ['Could not open the diff editor: no editor']);
  });

  test('an abort while the editor opens rejects the review once it has opened', async () => {
    const { review, steps, open } = slowReview();
    const interactions = new WebviewInteractions(review, () => '/w');
    const abort = new AbortController();
    const answer = interactions.approvals.ask(request, abort.signal);
    abort.abort(new Error('cancelled'));
    open();
    await assert.rejects(answer, /cancelled/);
    assert.deepEqual(steps, ['present /w/a.ts', 'opened', 'reject']);
    assert.equal(interactions.pendingApproval, undefined);
  });
});
