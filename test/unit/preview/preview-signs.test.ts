import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reasonsFromOutput } from '../../../src/core/preview/preview-signs.js';
import { previewSummaryLines, summarizePreview, type CommandPreview } from '../../../src/shared/command-preview-facts.js';

test('output that shows a missing network or a read-only write gives its reason, quoting the lines', () => {
  const reasons = reasonsFromOutput('fetching\ncurl: (6) Could not resolve host: example.com\nsh: 1: cannot create /home/u/x: Read-only file system\nok');
  assert.deepEqual(
    reasons.map((r) => r.code),
    ['network', 'outside-write'],
  );
  assert.match(reasons[0]!.detail, /Could not resolve host: example\.com/);
  assert.match(reasons[1]!.detail, /\/home\/u\/x: Read-only file system/);
  assert.deepEqual(reasonsFromOutput('getaddrinfo EAI_AGAIN registry.npmjs.org'), [
    { code: 'network', detail: 'it needs the network, which is off during a preview: getaddrinfo EAI_AGAIN registry.npmjs.org' },
  ]);
  assert.deepEqual(reasonsFromOutput("Error: EROFS: read-only file system, open '/etc/x'")[0]?.code, 'outside-write');
});

test('ordinary output gives no reason, and at most three lines are quoted', () => {
  assert.deepEqual(reasonsFromOutput('all 12 tests passed\nnetwork tests skipped'), []);
  const many = Array.from({ length: 10 }, (_, i) => `touch: /x${i}: Read-only file system`).join('\n');
  const [reason] = reasonsFromOutput(many);
  assert.equal(reason!.detail.split(' | ').length, 3);
});

const preview: CommandPreview = {
  command: 'make',
  cwd: '/w',
  root: '/w',
  ran: true,
  exitCode: 0,
  timedOut: false,
  timeoutSeconds: 30,
  output: '',
  outputTruncated: false,
  created: [{ path: 'a', after: { kind: 'file', size: 1, hash: 'h' }, binary: false, added: 3, removed: 0 }],
  changed: [{ path: 'b', before: { kind: 'file', size: 1, hash: 'h' }, after: { kind: 'file', size: 2, hash: 'i' }, binary: false, added: 1, removed: 1 }],
  deleted: [],
  outsideWrites: [],
  notPreviewable: [{ code: 'network', detail: 'it needs the network' }],
};

test('the summary keeps paths, counts and reasons, no contents', () => {
  const summary = summarizePreview(preview);
  assert.deepEqual(summary, {
    command: 'make',
    ran: true,
    exitCode: 0,
    timedOut: false,
    created: ['a'],
    changed: ['b'],
    deleted: [],
    added: 4,
    removed: 1,
    notPreviewable: [{ code: 'network', detail: 'it needs the network' }],
  });
  assert.deepEqual(previewSummaryLines(summary), [
    '1 created, 1 changed, 0 deleted (+4 -1 lines); exit code 0',
    'created  a',
    'changed  b',
    'not previewable (network): it needs the network',
  ]);
  assert.deepEqual(previewSummaryLines({ ...summary, unavailable: 'no bubblewrap' }), ['Preview unavailable: no bubblewrap']);
  assert.deepEqual(previewSummaryLines({ ...summary, created: [], changed: [], added: 0, removed: 0, notPreviewable: [], timedOut: true }), [
    'No file changes; timed out',
  ]);
});
