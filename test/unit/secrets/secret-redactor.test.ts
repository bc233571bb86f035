import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { REDACTED, SecretRedactor, credentialValues } from '../../../src/core/secrets/secret-redactor.js';

const KEY = 'sk-ant-api03-abcdefghijklmnop';

describe('SecretRedactor', () => {
  test('replaces every occurrence, in nested values, and ignores values too short to be secrets', () => {
    const redactor = new SecretRedactor();
    redactor.set('provider', [KEY, 'short', undefined, '']);
    assert.equal(redactor.redact(`a ${KEY} b ${KEY}`), `a ${REDACTED} b ${REDACTED}`);
    assert.equal(redactor.redact('a short text'), 'a short text');
    const event = { type: 'tool_result', output: `KEY=${KEY}`, details: { lines: [KEY], exitCode: 0 } };
    assert.deepEqual(redactor.redactDeep(event), { type: 'tool_result', output: `KEY=${REDACTED}`, details: { lines: [REDACTED], exitCode: 0 } });
    assert.equal(event.output, `KEY=${KEY}`, 'the original is not changed');
  });

  test('a group can be replaced without touching the others', () => {
    const redactor = new SecretRedactor();
    redactor.set('provider', [KEY]);
    redactor.set('mcp', ['ghp_tokenvalue1234']);
    redactor.set('mcp', []);
    assert.equal(redactor.redact(`${KEY} ghp_tokenvalue1234`), `${REDACTED} ghp_tokenvalue1234`);
  });

  test('a tracked group follows its source (MCP servers added or removed while a task runs)', () => {
    const redactor = new SecretRedactor();
    let configured = ['token-one-12345'];
    redactor.track('mcp', () => configured);
    assert.equal(redactor.redact('token-one-12345'), REDACTED);
    configured = ['token-two-67890'];
    assert.equal(redactor.redact('token-one-12345 token-two-67890'), `token-one-12345 ${REDACTED}`);
  });

  test('streamed text never shows a secret, however it is split into chunks', () => {
    const redactor = new SecretRedactor();
    redactor.set('provider', [KEY]);
    const text = `before ${KEY} middle sk-ant-not-it ${KEY.slice(0, 10)}… after ${KEY}`;
    for (let size = 1; size <= 12; size++) {
      const stream = redactor.stream();
      let shown = '';
      for (let i = 0; i < text.length; i += size) {
        shown += stream.push(text.slice(i, i + size));
        assert.ok(!shown.includes(KEY.slice(0, 12)), `a secret's start leaked at chunk size ${size}`);
      }
      shown += stream.end();
      assert.equal(shown, redactor.redact(text), `chunk size ${size}`);
    }
  });

  test('a growing text shows only its settled prefix, which later text never changes', () => {
    const redactor = new SecretRedactor();
    redactor.set('provider', [KEY]);
    const full = `x ${KEY} y`;
    let previous = '';
    for (let n = 0; n <= full.length; n++) {
      const shown = redactor.settledPrefix(full.slice(0, n));
      assert.ok(shown.startsWith(previous), `prefix at ${n}`);
      assert.ok(!shown.includes('sk-ant'));
      previous = shown;
    }
  });

  test('credentialValues picks credential-looking env and header names, and the bare token of a scheme', () => {
    assert.deepEqual(
      credentialValues({ GITHUB_TOKEN: 'ghp_abc123456', NODE_ENV: 'production', Authorization: 'Bearer tok_0123456789', 'X-Api-Key': 'k-987654321' }),
      ['ghp_abc123456', 'Bearer tok_0123456789', 'tok_0123456789', 'k-987654321'],
    );
  });
});
