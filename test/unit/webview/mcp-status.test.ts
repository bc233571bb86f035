import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { McpServerView } from '../../../src/shared/protocol.js';
import { fileName, mcpProblemPlace, mcpStatusLabel } from '../../../webview-ui/src/mcp/mcp-status.js';

function server(overrides: Partial<McpServerView>): McpServerView {
  return {
    name: 's',
    status: 'connected',
    source: '/x/mcp.json',
    scope: 'global',
    disabled: false,
    tools: [],
    resources: [],
    resourceTemplates: [],
    ...overrides,
  };
}

describe('MCP view wording', () => {
  test('the status text is the status, or the reconnect attempt while reconnecting', () => {
    assert.equal(mcpStatusLabel(server({ status: 'connected' })), 'connected');
    assert.equal(mcpStatusLabel(server({ status: 'connecting' })), 'connecting');
    assert.equal(mcpStatusLabel(server({ status: 'error', error: 'boom' })), 'error');
    assert.equal(mcpStatusLabel(server({ status: 'disabled', disabled: true })), 'disabled');
    assert.equal(mcpStatusLabel(server({ status: 'connecting', reconnect: { attempt: 2, maxAttempts: 5 } })), 'reconnecting (attempt 2 of 5)');
  });

  test('OAuth: a sign-in under way and a server waiting for one say so', () => {
    assert.equal(
      mcpStatusLabel(server({ status: 'connecting', auth: { state: 'signing-in', url: 'http://as/authorize' } })),
      'signing in (finish in the browser)',
    );
    assert.equal(mcpStatusLabel(server({ status: 'needs-auth', auth: { state: 'needs-sign-in' } })), 'needs sign-in');
    assert.equal(mcpStatusLabel(server({ status: 'connected', auth: { state: 'signed-in' } })), 'connected');
  });

  test('a problem names its server and field, or the whole file', () => {
    assert.equal(mcpProblemPlace({ file: 'f', server: 'docs', field: 'timeout', message: 'm' }), 'server "docs", field "timeout"');
    assert.equal(mcpProblemPlace({ file: 'f', server: 'docs', message: 'm' }), 'server "docs"');
    assert.equal(mcpProblemPlace({ file: 'f', message: 'is not valid JSON' }), 'the file');
  });

  test('file labels keep .smith/ for the workspace file', () => {
    assert.equal(fileName('/work/p/.smith/mcp.json'), '.smith/mcp.json');
    assert.equal(fileName('/home/u/storage/mcp_settings.json'), 'mcp_settings.json');
    assert.equal(fileName('C:\\\\Users\\\\u\\\\mcp_settings.json'), 'mcp_settings.json');
  });
});
