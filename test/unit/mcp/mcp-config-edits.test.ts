import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EMPTY_MCP_CONFIG_TEXT, setServerDisabled, setToolAutoApprove } from '../../../src/core/mcp/mcp-config-edits.js';

const FILE = `{
  // The team's servers.
  "mcpServers": {
    "docs": {
      "command": "npx", // pinned below
      "args": ["-y", "docs-server@1.2.3"]
    },
    "db": { "url": "http://127.0.0.1:9000/mcp", "alwaysAllow": ["query"] }
  }
}
`;

describe('MCP config edits keep the file as the user wrote it', () => {
  it('turning a server off adds one line, laid out like its neighbours, and leaves the comments', () => {
    const next = setServerDisabled(FILE, 'docs', true);
    assert.equal(next, FILE.replace('"args": ["-y", "docs-server@1.2.3"]\n', '"args": ["-y", "docs-server@1.2.3"],\n      "disabled": true\n'));
    // Turning it on again changes only the value.
    assert.equal(setServerDisabled(next, 'docs', false), next.replace('"disabled": true', '"disabled": false'));
  });

  it('an auto-approved tool goes into the list the entry already has (Roo Code’s alwaysAllow), once', () => {
    const next = setToolAutoApprove(FILE, 'db', 'schema', true);
    assert.equal(next, FILE.replace('"alwaysAllow": ["query"]', '"alwaysAllow": ["query", "schema"]'));
    assert.equal(setToolAutoApprove(next, 'db', 'schema', true), next);
  });

  it('removing a tool removes every occurrence, each with its own line and comment, and nothing else', () => {
    const text = `{"mcpServers": {"docs": {"command": "x", "autoApprove": [
    "search", // first
    "fetch",
    "search" // again
  ]}}}`;
    assert.equal(
      setToolAutoApprove(text, 'docs', 'search', false),
      `{"mcpServers": {"docs": {"command": "x", "autoApprove": [
    "fetch"
  ]}}}`,
    );
  });

  it('a new list starts in an entry without one; a new file starts with no servers', () => {
    assert.equal(
      setToolAutoApprove(FILE, 'docs', 'search', true),
      FILE.replace('"args": ["-y", "docs-server@1.2.3"]\n', '"args": ["-y", "docs-server@1.2.3"],\n      "autoApprove": ["search"]\n'),
    );
    assert.deepEqual(JSON.parse(EMPTY_MCP_CONFIG_TEXT), { mcpServers: {} });
  });

  it('a file that is not valid JSON, a server it does not define, or a list that is not one: a clear error and no change', () => {
    assert.throws(() => setServerDisabled('{"mcpServers": {"docs": {}', 'docs', true), /not valid JSON \(.+ at line 1, column \d+\); fix it first/);
    assert.throws(() => setServerDisabled(FILE, 'gone', true), /does not define a server "gone"/);
    assert.throws(
      () => setToolAutoApprove('{"mcpServers": {"docs": {"autoApprove": "all"}}}', 'docs', 'x', true),
      /"autoApprove" of MCP server "docs" is not a list/,
    );
  });
});
