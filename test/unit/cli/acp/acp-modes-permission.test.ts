// Smith's modes as ACP session modes (each in Act and in Plan) and approvals as permission requests.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acpModeState, parseAcpModeId } from '../../../../src/cli/acp/acp-modes.js';
import { permissionChoice, permissionRequest } from '../../../../src/cli/acp/acp-permission.js';
import { BUILT_IN_MODES } from '../../../../src/core/modes/built-in-modes.js';

describe('ACP session modes', () => {
  test('every mode in Act and in Plan; ids read back; an unknown slug is none', () => {
    const state = acpModeState(BUILT_IN_MODES, { mode: 'plan', modeSlug: 'architect' });
    assert.equal(state.currentModeId, 'architect:plan');
    assert.deepEqual(
      state.availableModes.map((m) => m.id),
      BUILT_IN_MODES.flatMap((m) => [m.slug, `${m.slug}:plan`]),
    );
    assert.deepEqual(parseAcpModeId('ask:plan', BUILT_IN_MODES), { mode: 'plan', modeSlug: 'ask' });
    assert.deepEqual(parseAcpModeId('code', BUILT_IN_MODES), { mode: 'act', modeSlug: 'code' });
    assert.equal(parseAcpModeId('nope:plan', BUILT_IN_MODES), undefined);
    assert.equal(parseAcpModeId(':plan', BUILT_IN_MODES), undefined);
  });
});

describe('ACP permission requests', () => {
  const editRequest = {
    callId: 'call-3',
    tool: 'replace_in_file',
    params: { path: 'src/a.ts', diff: '…' },
    summary: 'Edit src/a.ts (+1 -1)',
    path: 'src/a.ts',
    allowRules: ['Edit(src/a.ts)'],
    proposal: { original: 'a\n', proposed: 'b\n', isNewFile: false },
  };

  test('an edit is asked with its diff and the options; a call no rule can allow has no "always"', () => {
    const request = permissionRequest('s1', editRequest, '/ws');
    assert.equal(request.sessionId, 's1');
    assert.deepEqual(request.toolCall.content, [{ type: 'diff', path: '/ws/src/a.ts', oldText: 'a\n', newText: 'b\n' }]);
    assert.deepEqual(request.toolCall.locations, [{ path: '/ws/src/a.ts' }]);
    assert.deepEqual(
      request.options.map((o) => [o.optionId, o.kind]),
      [
        ['allow-once', 'allow_once'],
        ['allow-always-workspace', 'allow_always'],
        ['allow-always-user', 'allow_always'],
        ['reject-once', 'reject_once'],
      ],
    );
    const command = permissionRequest(
      's1',
      { callId: 'c', tool: 'execute_command', summary: 'Run x', command: 'x $(y)', reason: 'Outside the sandbox.' },
      '/ws',
    );
    assert.deepEqual(
      command.options.map((o) => o.kind),
      ['allow_once', 'reject_once'],
    );
    assert.deepEqual(command.toolCall.content, [
      { type: 'content', content: { type: 'text', text: 'x $(y)' } },
      { type: 'content', content: { type: 'text', text: 'Outside the sandbox.' } },
    ]);
  });

  test('choices: once, always (with the rules and where), reject, cancelled, and an option never offered', () => {
    const chosen = (optionId: string) => permissionChoice({ outcome: { outcome: 'selected', optionId } }, editRequest);
    assert.deepEqual(chosen('allow-once'), { answer: { approved: true } });
    assert.deepEqual(chosen('allow-always-workspace'), { answer: { approved: true }, remember: { rules: ['Edit(src/a.ts)'], scope: 'workspace' } });
    assert.deepEqual(chosen('allow-always-user'), { answer: { approved: true }, remember: { rules: ['Edit(src/a.ts)'], scope: 'user' } });
    assert.deepEqual(chosen('reject-once'), { answer: { approved: false } });
    assert.equal(chosen('allow-everything-forever').answer.approved, false);
    assert.equal(permissionChoice({ outcome: { outcome: 'cancelled' } }, editRequest).answer.approved, false);
    const noRules = permissionChoice({ outcome: { outcome: 'selected', optionId: 'allow-always-user' } }, { ...editRequest, allowRules: [] });
    assert.equal(noRules.answer.approved, false);
    assert.equal(noRules.remember, undefined);
  });
});
