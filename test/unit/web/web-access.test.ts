// One canonical host, and the web tools' verdict on it: by name in every spelling, by the addresses a
// name resolves to (a scripted resolver stands in for DNS), and under the sandbox's allowed hosts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalHost, isLoopbackHost } from '../../../src/core/web/canonical-host.js';
import { findMatchingEntry } from '../../../src/core/web/host-patterns.js';
import { checkWebAccess, pinnedLookup, type WebAccessPolicy } from '../../../src/core/web/web-access.js';
import { hostAllowed } from '../../../src/core/process/host-allow-list.js';

/** Every way of writing 127.0.0.1 (or this machine) that a URL, a redirect or a rule may use. */
const LOOPBACK_SPELLINGS = [
  '127.0.0.1',
  '2130706433',
  '0177.0.0.1',
  '0x7f.1',
  '0x7f000001',
  '127.1',
  '127.0.0.1.',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '::ffff:127.0.0.1',
  '[0:0:0:0:0:ffff:7f00:1]',
  '[::127.0.0.1]',
  '0.0.0.0',
  '[::]',
  '[::1]',
  'LOCALHOST',
  'localhost.',
  'localhost..',
  'app.localhost',
  '127.0.0.2',
];

/** A resolver from a table; names not in it do not resolve. */
function table(entries: Record<string, string[]>): (name: string) => Promise<readonly string[]> {
  return async (name) => {
    const found = entries[name];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return found;
  };
}

describe('canonical hosts', () => {
  test('numeric spellings of an IPv4 address, mapped IPv6, case and trailing dots all come to one form', () => {
    for (const spelling of [
      '127.0.0.1',
      '2130706433',
      '0177.0.0.1',
      '0x7f.1',
      '127.1',
      '127.0.0.1.',
      '127.0.0.1..',
      '[::ffff:127.0.0.1]',
      '::ffff:7f00:1',
      '[0:0:0:0:0:ffff:7f00:1]',
      '[::127.0.0.1]',
      '%31%32%37.0.0.1',
    ])
      assert.equal(canonicalHost(spelling), '127.0.0.1', spelling);
    assert.equal(canonicalHost('Example.COM.'), 'example.com');
    assert.equal(canonicalHost('exämple.com'), 'xn--exmple-cua.com');
    assert.equal(canonicalHost('[2001:DB8:0:0:0:0:0:1]'), '2001:db8::1');
    assert.equal(canonicalHost('::1'), '::1');
    assert.equal(canonicalHost('[::]'), '::');
    for (const bad of ['', ' ', 'a b', 'exa/mple.com', 'user@host', '[::g]', '.'] as const) assert.equal(canonicalHost(bad), undefined, bad);
  });

  test('every spelling of this machine is loopback; nothing else is', () => {
    for (const spelling of LOOPBACK_SPELLINGS) assert.equal(isLoopbackHost(canonicalHost(spelling)!), true, spelling);
    for (const host of ['example.com', 'localhost.example.com', '128.0.0.1', '10.0.0.1', '127.0.0.1.nip.io', '[::2]', '[::ffff:10.0.0.1]'])
      assert.equal(isLoopbackHost(canonicalHost(host)!), false, host);
  });

  test('a rule about one spelling holds for every other, for deny lists, allow lists and WebFetch rules alike', () => {
    for (const entry of ['localhost', '127.0.0.1', '0x7f.1', '[::1]', '0.0.0.0', 'localhost:3000']) {
      for (const spelling of LOOPBACK_SPELLINGS) {
        assert.equal(findMatchingEntry([entry], spelling, true), entry, `${entry} denies ${spelling}`);
        assert.equal(hostAllowed([entry], spelling), true, `${entry} allows ${spelling}`);
      }
    }
    assert.equal(findMatchingEntry(['10.0.0.1'], '167772161', true), '10.0.0.1');
    assert.equal(findMatchingEntry(['10.0.0.1'], '[::ffff:a00:1]', true), '10.0.0.1');
    assert.equal(findMatchingEntry(['0.0.1'], '1.0.0.1', true), undefined, 'an address never matches as a suffix');
    assert.equal(findMatchingEntry(['example.com'], 'DOCS.example.com.', true), 'example.com');
    assert.equal(hostAllowed(['example.com'], 'docs.example.com'), false, 'the allow list names hosts exactly');
    assert.equal(hostAllowed(['*.example.com'], 'Docs.Example.Com.'), true);
    assert.equal(findMatchingEntry(['localhost'], '10.0.0.1', true), undefined);
    assert.equal(findMatchingEntry(['*.0.0.1'], '127.0.0.1', true), undefined, 'a wildcard of digits names no host');
  });
});

describe('the web tools judge where a request really goes', () => {
  test('a name that resolves to a denied address is refused, and the refusal names the entry', async () => {
    const resolve = table({ 'evil.test': ['10.1.1.1', '127.0.0.1'], 'fine.test': ['10.1.1.1'], localhost: ['127.0.0.1', '::1'] });
    const policy: WebAccessPolicy = { deniedDomains: ['127.0.0.1'], resolve };
    const refused = await checkWebAccess('evil.test', policy);
    assert.deepEqual(refused, {
      allowed: false,
      refused: true,
      reason: `evil.test (127.0.0.1) is on the user's deny list for web tools (entry "127.0.0.1"); it was not opened. Do not try to reach it another way.`,
    });
    assert.deepEqual(await checkWebAccess('fine.test', policy), { allowed: true, host: 'fine.test', addresses: ['10.1.1.1'] });
    // A mapped address from DNS is the IPv4 address it maps.
    const mapped = await checkWebAccess('mapped.test', { deniedDomains: ['localhost'], resolve: table({ 'mapped.test': ['::ffff:7f00:1'] }) });
    assert.equal(mapped.allowed, false);
  });

  test('a deny entry written as a name also holds for the addresses that name resolves to', async () => {
    const resolve = table({ 'intranet.test': ['10.9.9.9'], 'alias.test': ['10.9.9.9'], 'other.test': ['10.8.8.8'] });
    const policy: WebAccessPolicy = {
      denyRules: () => [{ domain: 'intranet.test', rule: 'WebFetch(domain:intranet.test)', source: 'project settings' }],
      resolve,
    };
    for (const host of ['alias.test', '10.9.9.9', '0xa.9.9.9', '168364297', '[::ffff:10.9.9.9]']) {
      const verdict = await checkWebAccess(host, policy);
      assert.equal(verdict.allowed, false, host);
      assert.match(
        verdict.allowed ? '' : verdict.reason,
        /^The user's permission rule WebFetch\(domain:intranet\.test\) \(project settings\) denies .*10\.9\.9\.9, which intranet\.test resolves to/,
        host,
      );
    }
    assert.equal((await checkWebAccess('other.test', policy)).allowed, true);
  });

  test('under the sandbox only its allowed hosts are reached; with the network off none is', async () => {
    const resolve = table({ 'registry.test': ['10.2.2.2'], 'elsewhere.test': ['10.3.3.3'], localhost: ['127.0.0.1'] });
    const sandboxed: WebAccessPolicy = { sandboxAllowedHosts: ['registry.test', '10.4.4.4'], resolve };
    assert.equal((await checkWebAccess('REGISTRY.test.', sandboxed)).allowed, true);
    assert.equal((await checkWebAccess('0xa.4.4.4', sandboxed)).allowed, true);
    const refused = await checkWebAccess('elsewhere.test', sandboxed);
    assert.deepEqual(refused, {
      allowed: false,
      refused: true,
      reason:
        "elsewhere.test was not opened: under Smith's sandbox the web tools reach only the sandbox's allowed hosts (--sandbox-allow-host, smith.sandboxAllowedHosts), and it is not one of them.",
    });
    assert.equal((await checkWebAccess('127.0.0.1', sandboxed)).allowed, false);
    const off = await checkWebAccess('localhost', { sandboxAllowedHosts: [], resolve });
    assert.match(off.allowed ? '' : off.reason, /^localhost was not opened: Smith's sandbox has the network turned off/);
  });

  test('a name that does not resolve is not reachable, and is not called a refusal', async () => {
    const verdict = await checkWebAccess('nowhere.test', { resolve: table({}) });
    assert.deepEqual(verdict, { allowed: false, refused: false, reason: 'nowhere.test could not be resolved (ENOTFOUND)' });
  });

  test('the connection is made to the addresses judged, whatever DNS says later', async () => {
    const lookup = pinnedLookup(['10.5.5.5', 'fd00::5']);
    const one = await new Promise<[string, number]>((resolve) =>
      lookup('rebinding.test', { family: 6 }, (_e, address, family) => resolve([address as string, family as number])),
    );
    assert.deepEqual(one, ['fd00::5', 6]);
    const all = await new Promise<unknown>((resolve) => lookup('rebinding.test', { all: true }, (_e, addresses) => resolve(addresses)));
    assert.deepEqual(all, [
      { address: '10.5.5.5', family: 4 },
      { address: 'fd00::5', family: 6 },
    ]);
  });
});
