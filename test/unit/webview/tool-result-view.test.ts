import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ToolFacts } from '../../../src/shared/tool-details.js';
import { commandEndText, findingsLine } from '../../../src/shared/tool-result-summary.js';
import { toolSubject } from '../../../src/shared/tool-subject.js';
import type { UiToolMessage } from '../../../src/shared/ui-messages.js';
import { commandView, editStats, exitBadge } from '../../../webview-ui/src/chat/tool-result-view.js';

const card = (tool: string, output: string | undefined, details?: ToolFacts): UiToolMessage => ({
  kind: 'tool',
  id: 'e1',
  callId: 'c1',
  tool,
  params: {},
  status: 'done',
  ...(output !== undefined ? { output } : {}),
  ...(details !== undefined ? { details } : {}),
  ts: 1,
});

describe("a command card renders from the result's facts", () => {
  test('output and exit badge come from the facts, not from the text the model read', () => {
    const message = card('execute_command', 'Exit code: 2\nOutput:\nFAIL', {
      command: { command: 'npm test', end: { kind: 'exited', exitCode: 2 }, output: 'FAIL', truncated: false },
    });
    const view = commandView(message, undefined);
    assert.deepEqual(view, { output: 'FAIL', end: { kind: 'exited', exitCode: 2 } });
    assert.deepEqual(exitBadge(view?.end), { text: '2', label: 'Exit code 2', ok: false });
    assert.deepEqual(exitBadge({ kind: 'exited', exitCode: 0 }), { text: '0', label: 'Exit code 0', ok: true });
    assert.deepEqual(exitBadge({ kind: 'exited', exitCode: null, signal: 'SIGKILL' }), { text: 'SIGKILL', label: 'Ended by SIGKILL', ok: false });
  });

  test('a timeout, a background run, a cut and ignored paths become the note; no exit badge without an exit', () => {
    const facts: ToolFacts = {
      command: { command: 'npm start', end: { kind: 'backgrounded', sessionId: 3, by: 'quiet' }, output: 'listening', truncated: true, ignoredPaths: ['.env'] },
    };
    const view = commandView(card('execute_command', 'text for the model', facts), undefined);
    assert.equal(
      view?.note,
      "Still running in the background (id 3). The output was too long: the middle was cut. It named paths excluded from Smith's tools: .env.",
    );
    assert.equal(exitBadge(view?.end), undefined);
    const timedOut = commandView(
      card('execute_command', 'x', { command: { command: 'sleep 99', end: { kind: 'timed_out', timeoutSeconds: 5 }, output: '', truncated: false } }),
      undefined,
    );
    assert.equal(timedOut?.note, 'Killed after 5 s: it did not finish.');
  });

  test('live output while running; a result logged without facts shows its text whole, without a badge', () => {
    assert.deepEqual(commandView(card('execute_command', undefined), 'partial'), { output: 'partial' });
    const old = commandView(card('execute_command', 'Exit code: 0\nOutput:\nok'), undefined);
    assert.deepEqual(old, { output: 'Exit code: 0\nOutput:\nok' });
    assert.equal(exitBadge(old?.end), undefined);
    assert.equal(commandView(card('execute_command', undefined), undefined), undefined);
  });
});

describe('edit stats', () => {
  test("+added −removed of what landed, from the result's facts", () => {
    const message = card('replace_in_file', 'saved', { edit: { path: 'a.ts', added: 4, removed: 2, created: false, sha256Before: 'a', sha256After: 'b' } });
    assert.deepEqual(editStats(message, undefined), { added: 4, removed: 2 });
  });

  test("while the call waits, the approval's counts; a result logged without facts has none", () => {
    const waiting = { ...card('replace_in_file', undefined), status: 'awaiting_approval' as const };
    assert.deepEqual(editStats(waiting, { callId: 'c1', tool: 'replace_in_file', summary: 'Edit a.ts', stats: { added: 1, removed: 1 } }), {
      added: 1,
      removed: 1,
    });
    assert.equal(editStats(waiting, { callId: 'other', tool: 'replace_in_file', summary: 'Edit b.ts', stats: { added: 9, removed: 9 } }), undefined);
    assert.equal(editStats(card('replace_in_file', 'The file a.ts was saved successfully.'), undefined), undefined);
  });
});

describe('shared summaries of a call and its result', () => {
  test('what a call is about, for every kind of tool', () => {
    assert.deepEqual(toolSubject('execute_command', { command: 'npm test' }), { kind: 'command', text: 'npm test' });
    assert.deepEqual(toolSubject('search_files', { path: 'src', regex: 'TODO' }), { kind: 'text', text: '/TODO/ in src' });
    assert.deepEqual(toolSubject('write_to_file', { path: 'src/a.ts', content: 'x' }), { kind: 'path', text: 'src/a.ts' });
    assert.deepEqual(toolSubject('access_mcp_resource', { server_name: 'fs', uri: 'file:///a' }), { kind: 'text', text: 'fs › file:///a' });
    assert.deepEqual(toolSubject('list_mcp_servers', { server_name: 'fs' }), { kind: 'text', text: 'fs' });
    assert.deepEqual(toolSubject('search_mcp_tools', { query: 'create issue' }), { kind: 'text', text: 'create issue' });
  });

  test('what a read, listing, search or outline found', () => {
    assert.equal(findingsLine({ read: { path: 'a', firstLine: 1, lastLine: 40, totalLines: 120, truncated: true } }), 'lines 1–40 of 120');
    assert.equal(findingsLine({ read: { path: 'a', firstLine: 1, lastLine: 1, totalLines: 1, truncated: false } }), '1 line');
    assert.equal(findingsLine({ read: { path: 'a', firstLine: 0, lastLine: 0, totalLines: 0, truncated: false } }), 'empty file');
    assert.equal(findingsLine({ list: { path: 'src', recursive: true, entries: 200, truncated: true } }), '200 entries (more not listed)');
    assert.equal(findingsLine({ search: { path: 'src', query: 'x', files: 1, matches: 3, truncated: false } }), '3 matches in 1 file');
    assert.equal(findingsLine({ search: { query: 'issue', files: 2, matches: 5, truncated: false } }), '5 matches in 2 servers');
    assert.equal(findingsLine({ outline: { path: 'src', files: 4, definitions: 12, skipped: 1 } }), '12 definitions in 4 files, 1 skipped');
    assert.equal(findingsLine({ mcp: { server: 's', tool: 't', isError: false } }), undefined);
    assert.equal(findingsLine(undefined), undefined);
  });

  test('how a command ended, in words', () => {
    assert.equal(commandEndText({ kind: 'exited', exitCode: 1 }), 'exit code 1');
    assert.equal(commandEndText({ kind: 'exited', exitCode: null, signal: 'SIGTERM' }), 'ended by SIGTERM');
    assert.equal(commandEndText({ kind: 'timed_out', timeoutSeconds: 600 }), 'killed after 600 s: it did not finish');
    assert.equal(commandEndText({ kind: 'backgrounded', sessionId: 2, by: 'user' }), 'still running in the background (id 2)');
  });
});
