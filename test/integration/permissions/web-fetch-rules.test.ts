// WebFetch(domain:…) rules judge the canonical host, and their deny rules go to the web tools, which
// judge them again at every redirect hop (see test/integration/tools/web-redirects.test.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judgeCall, webDenyRules } from '../../../src/core/permissions/permission-rules.js';

describe('WebFetch rules', () => {
  test('WebFetch(domain:…) rules match the canonical host, and the deny rules are handed to the web tools', async () => {
    const rules = [
      { effect: 'deny' as const, rule: 'WebFetch(domain:localhost)', source: 'settings' },
      { effect: 'allow' as const, rule: 'WebFetch(domain:example.com)', source: 'settings' },
      { effect: 'deny' as const, rule: 'Bash(rm:*)', source: 'settings' },
    ];
    for (const url of ['http://0x7f.1:8080/', 'http://[::ffff:127.0.0.1]/', 'http://LOCALHOST./', 'http://2130706433/', 'http://0.0.0.0/'])
      assert.equal((await judgeCall(rules, { tool: 'web_fetch', params: { url }, cwd: '/' }))?.effect, 'deny', url);
    assert.equal((await judgeCall(rules, { tool: 'web_fetch', params: { url: 'https://EXAMPLE.com./x' }, cwd: '/' }))?.effect, 'allow');
    assert.deepEqual(webDenyRules(rules), [{ domain: 'localhost', rule: 'WebFetch(domain:localhost)', source: 'settings' }]);
  });
});
