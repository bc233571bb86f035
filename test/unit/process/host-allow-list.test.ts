import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hostAllowed, hostAllowListProblems } from '../../../src/core/process/host-allow-list.js';

describe("the sandbox's allowed hosts", () => {
  test('an entry names one host; *.domain names the hosts under it, not the domain', () => {
    const allowed = ['registry.npmjs.org', '*.github.com', '10.0.0.5', '::1'];
    assert.equal(hostAllowed(allowed, 'registry.npmjs.org'), true);
    assert.equal(hostAllowed(allowed, 'REGISTRY.npmjs.org.'), true, 'case and a trailing dot do not matter');
    assert.equal(hostAllowed(allowed, 'evil-registry.npmjs.org'), false);
    assert.equal(hostAllowed(allowed, 'registry.npmjs.org.evil.com'), false);
    assert.equal(hostAllowed(allowed, 'api.github.com'), true);
    assert.equal(hostAllowed(allowed, 'a.b.github.com'), true);
    assert.equal(hostAllowed(allowed, 'github.com'), false);
    assert.equal(hostAllowed(allowed, 'notgithub.com'), false);
    assert.equal(hostAllowed(allowed, '10.0.0.5'), true);
    assert.equal(hostAllowed(allowed, '[::1]'), true);
    assert.equal(hostAllowed([], 'example.com'), false);
  });

  test('what is not a host name, an IP address or *.domain is named', () => {
    assert.deepEqual(hostAllowListProblems(['ok.example', '*.example.org', '127.0.0.1', 'http://x.example/', '*', 'a b', '*.']), [
      '"http://x.example/" is not a host name, an IP address or *.domain',
      '"*" is not a host name, an IP address or *.domain',
      '"a b" is not a host name, an IP address or *.domain',
      '"*." is not a host name, an IP address or *.domain',
    ]);
  });
});
