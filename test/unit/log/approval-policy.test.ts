import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { APPROVE_ALL_POLICY, DEFAULT_POLICY, isAutoApproved } from '../../../src/core/log/approval-policy.js';
import { policyFromFlags } from '../../../src/cli/cli-policy.js';

describe('isAutoApproved', () => {
  test('by default only reads inside the workspace and interaction tools skip the question', () => {
    assert.equal(isAutoApproved(DEFAULT_POLICY, { group: 'read' }), true);
    assert.equal(isAutoApproved(DEFAULT_POLICY, { group: 'interaction' }), true);
    assert.equal(isAutoApproved(DEFAULT_POLICY, { group: 'edit' }), false);
    assert.equal(isAutoApproved(DEFAULT_POLICY, { group: 'command', requiresApproval: false }), false);
    assert.equal(isAutoApproved(DEFAULT_POLICY, { group: 'read', outsideWorkspace: true }), false);
  });

  test('approve-all still asks outside the workspace unless that is allowed too', () => {
    assert.equal(isAutoApproved(APPROVE_ALL_POLICY, { group: 'edit' }), true);
    assert.equal(isAutoApproved(APPROVE_ALL_POLICY, { group: 'edit', outsideWorkspace: true }), false);
    assert.equal(isAutoApproved({ ...APPROVE_ALL_POLICY, outsideWorkspace: true }, { group: 'edit', outsideWorkspace: true }), true);
  });

  test('safe commands are those the model marked requires_approval=false', () => {
    const safeOnly = { ...DEFAULT_POLICY, safeCommands: true };
    assert.equal(isAutoApproved(safeOnly, { group: 'command', requiresApproval: false }), true);
    assert.equal(isAutoApproved(safeOnly, { group: 'command', requiresApproval: true }), false);
    assert.equal(isAutoApproved({ ...DEFAULT_POLICY, mcpTools: false }, { group: 'mcp', serverAutoApproved: true }), true);
  });

  test('the web tools ask unless their switch is on (it is with approve-all)', () => {
    assert.equal(isAutoApproved(DEFAULT_POLICY, { group: 'browser' }), false);
    assert.equal(isAutoApproved({ ...DEFAULT_POLICY, allCommands: true, mcpTools: true }, { group: 'browser' }), false);
    assert.equal(isAutoApproved({ ...DEFAULT_POLICY, browser: true }, { group: 'browser' }), true);
    assert.equal(isAutoApproved(APPROVE_ALL_POLICY, { group: 'browser' }), true);
    assert.equal(
      isAutoApproved(policyFromFlags({ yes: false, autoApprove: ['browser'], allowOutsideWorkspace: false, maxConsecutive: 0 }), { group: 'browser' }),
      true,
    );
    assert.equal(
      isAutoApproved(policyFromFlags({ yes: false, autoApprove: ['edit'], allowOutsideWorkspace: false, maxConsecutive: 0 }), { group: 'browser' }),
      false,
    );
  });
});
