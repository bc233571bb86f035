import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expandEntryVariables, expandVariables } from '../../../src/core/mcp/mcp-variable-expansion.js';

describe('${VAR} expansion in MCP entries', () => {
  const env = { HOME: '/home/me', TOKEN: 's3cret', EMPTY: '', NESTED: '${TOKEN}' };

  test('replaces set variables and takes the default only for an unset one', () => {
    assert.deepEqual(expandVariables('${HOME}/bin:${TOKEN}', env), { value: '/home/me/bin:s3cret', missing: [] });
    assert.deepEqual(expandVariables('${PORT:-8080}', env), { value: '8080', missing: [] });
    assert.deepEqual(expandVariables('${TOKEN:-fallback}', env), { value: 's3cret', missing: [] });
    // As Claude Code does: a variable set to "" is used, not the default.
    assert.deepEqual(expandVariables('[${EMPTY:-x}]', env), { value: '[]', missing: [] });
    assert.deepEqual(expandVariables('${PORT:-}', env), { value: '', missing: [] });
    assert.deepEqual(expandVariables('${URL:-http://a:1/b?c=d}', env), { value: 'http://a:1/b?c=d', missing: [] });
  });

  test('reports each unset variable without a default and leaves the reference as written', () => {
    assert.deepEqual(expandVariables('a ${NOPE} b ${ALSO_NOT} ${NOPE}', env), {
      value: 'a ${NOPE} b ${ALSO_NOT} ${NOPE}',
      missing: ['NOPE', 'ALSO_NOT', 'NOPE'],
    });
  });

  test('a value is inserted as it is, never expanded again; text that is not a reference stays', () => {
    assert.deepEqual(expandVariables('${NESTED}', env), { value: '${TOKEN}', missing: [] });
    for (const text of ['$HOME', '${}', '${1X}', '${A-B}', '$${', '${HOME', 'plain'])
      assert.deepEqual(expandVariables(text, env), { value: text, missing: [] }, text);
  });

  test('an entry: command, args, env values, cwd, url and headers are expanded; names and other fields are not', () => {
    const { value, missing } = expandEntryVariables(
      {
        command: '${HOME}/bin/server',
        args: ['--token', '${TOKEN}', '${MODE:-fast}'],
        env: { '${TOKEN}': '${TOKEN}', PLAIN: 'x' },
        cwd: '${HOME}',
        url: 'http://localhost:${PORT:-3000}/mcp',
        headers: { Authorization: 'Bearer ${TOKEN}' },
        description: '${TOKEN}',
        autoApprove: ['${TOKEN}'],
        timeout: 5,
      },
      env,
    );
    assert.deepEqual(missing, []);
    assert.deepEqual(value, {
      command: '/home/me/bin/server',
      args: ['--token', 's3cret', 'fast'],
      env: { '${TOKEN}': 's3cret', PLAIN: 'x' },
      cwd: '/home/me',
      url: 'http://localhost:3000/mcp',
      headers: { Authorization: 'Bearer s3cret' },
      description: '${TOKEN}',
      autoApprove: ['${TOKEN}'],
      timeout: 5,
    });
  });

  test('an entry collects the missing variables of every field once', () => {
    assert.deepEqual(expandEntryVariables({ command: '${A}', args: ['${B}', '${A}'], headers: { X: '${C}' } }, {}).missing, ['A', 'B', 'C']);
  });
});
