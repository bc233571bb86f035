// Apply writes exactly what the preview's copy holds, never through a link, and refuses (writing
// nothing) when the workspace moved since the preview or the preview does not show everything.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { applyPreview, PreviewNotAppliedError } from '../../../src/core/preview/preview-apply.js';
import type { CommandPreview, PreviewFile } from '../../../src/shared/command-preview-facts.js';
import { folderFingerprint } from '../../helpers/folder-fingerprint.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

const hash = (text: string) => createHash('sha256').update(text).digest('hex');
const side = (text: string, kind: 'file' | 'exec' | 'link' = 'file') => ({ kind, size: Buffer.byteLength(text), hash: hash(text) });
const file = (path: string, before?: string, after?: string, kind: 'file' | 'exec' | 'link' = 'file'): PreviewFile => ({
  path,
  ...(before !== undefined ? { before: side(before) } : {}),
  ...(after !== undefined ? { after: side(after, kind) } : {}),
  binary: false,
  added: 0,
  removed: 0,
});

let ws: TempWorkspace;
let copy: TempWorkspace;
let outside: string;
beforeEach(() => {
  ws = createTempWorkspace('smith-apply-ws-');
  copy = createTempWorkspace('smith-apply-copy-');
  outside = mkdtempSync(join(tmpdir(), 'smith-apply-outside-'));
  ws.write('keep.txt', 'keep\n');
  ws.write('change.txt', 'old\n');
  ws.write('gone.txt', 'gone\n');
  copy.write('keep.txt', 'keep\n');
  copy.write('change.txt', 'new\n');
  copy.write('dir/new.sh', '#!/bin/sh\n');
  symlinkSync('keep.txt', join(copy.root, 'link'));
});
afterEach(() => {
  ws.dispose();
  copy.dispose();
  rmSync(outside, { recursive: true, force: true });
});

function previewOf(overrides: Partial<CommandPreview> = {}): CommandPreview {
  return {
    command: 'x',
    cwd: ws.root,
    root: ws.root,
    ran: true,
    exitCode: 0,
    timedOut: false,
    timeoutSeconds: 30,
    output: '',
    outputTruncated: false,
    created: [file('dir/new.sh', undefined, '#!/bin/sh\n', 'exec'), file('link', undefined, 'keep.txt', 'link')],
    changed: [file('change.txt', 'old\n', 'new\n')],
    deleted: [file('gone.txt', 'gone\n')],
    outsideWrites: [],
    notPreviewable: [],
    ...overrides,
  };
}

test('writes the previewed files, links and modes exactly, and deletes what was deleted', () => {
  chmodSync(join(copy.root, 'dir/new.sh'), 0o755);
  const applied = applyPreview(previewOf(), copy.root);
  assert.deepEqual([...applied.deleted], ['gone.txt']);
  assert.deepEqual([...applied.written].sort(), ['change.txt', 'dir/new.sh', 'link']);
  assert.equal(ws.read('change.txt'), 'new\n');
  assert.equal(ws.read('dir/new.sh'), '#!/bin/sh\n');
  assert.ok(statSync(join(ws.root, 'dir/new.sh')).mode & 0o100);
  assert.equal(readlinkSync(join(ws.root, 'link')), 'keep.txt');
  assert.equal(existsSync(join(ws.root, 'gone.txt')), false);
  assert.equal(ws.read('keep.txt'), 'keep\n');
});

test('a file changed since the preview: nothing is written', () => {
  ws.write('change.txt', 'edited by the user\n');
  const before = folderFingerprint(ws.root);
  assert.throws(
    () => applyPreview(previewOf(), copy.root),
    (e: Error) => e instanceof PreviewNotAppliedError && /change\.txt/.test(e.message),
  );
  assert.equal(folderFingerprint(ws.root), before);
});

test('a folder replaced by a link to outside since the preview: refused, nothing written outside', () => {
  symlinkSync(outside, join(ws.root, 'dir'));
  const before = folderFingerprint(outside);
  assert.throws(() => applyPreview(previewOf(), copy.root), PreviewNotAppliedError);
  assert.equal(folderFingerprint(outside), before);
  assert.equal(existsSync(join(outside, 'new.sh')), false);
});

test('a preview with a reason, or one that did not run, is never applied', () => {
  const before = folderFingerprint(ws.root);
  assert.throws(() => applyPreview(previewOf({ notPreviewable: [{ code: 'timed-out', detail: 'it did not end' }] }), copy.root), /it did not end/);
  assert.throws(() => applyPreview(previewOf({ ran: false }), copy.root), PreviewNotAppliedError);
  assert.equal(folderFingerprint(ws.root), before);
  assert.equal(readFileSync(join(ws.root, 'change.txt'), 'utf8'), 'old\n');
});

test("the copy's file is not what the preview reported: refused", () => {
  copy.write('change.txt', 'tampered\n');
  assert.throws(() => applyPreview(previewOf(), copy.root), /in the preview's copy/);
  assert.equal(ws.read('change.txt'), 'old\n');
});
