// Where a web tool (web_fetch, an @url mention, the browser) may go, judged on where a request really
// goes: the host in its canonical form and every address its name resolves to. The addresses that
// passed are the ones to connect to (see pinnedLookup), so DNS cannot change its answer in between.

import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { canonicalHost, isIpAddress, isLoopbackHost } from './canonical-host.js';
import { parseHostPattern, patternMatches, type HostPattern } from './host-patterns.js';

/** A WebFetch(domain:…) deny rule of the user's permissions. */
export interface WebDenyRule {
  /** The domain as the rule names it (`example.com`, `*.example.com`). */
  readonly domain: string;
  /** The rule as written, e.g. `WebFetch(domain:example.com)`. */
  readonly rule: string;
  /** Where it came from (a settings file, `--deny`). */
  readonly source: string;
}

/** Resolves a host name to its addresses (all of them); injectable for tests. */
type HostResolver = (name: string) => Promise<readonly string[]>;

/** What the web tools may reach. */
export interface WebAccessPolicy {
  /** `--web-deny`, `smith.web.deniedDomains`: `example.com` (and its subdomains) or `*.example.com`. */
  readonly deniedDomains?: readonly string[];
  /** The user's WebFetch(domain:…) deny rules, read at every check (a rule added mid-task holds at once). */
  readonly denyRules?: () => readonly WebDenyRule[];
  /**
   * Set when the sandbox keeps commands off the network: the only hosts the web tools reach (the
   * sandbox's allowed hosts; empty when the network is off altogether).
   */
  readonly sandboxAllowedHosts?: readonly string[];
  readonly resolve?: HostResolver;
}

/** The verdict on one host: the canonical host and the addresses to connect to, or why not. */
type WebAccess =
  | { readonly allowed: true; readonly host: string; readonly addresses: readonly string[] }
  | { readonly allowed: false; readonly reason: string; readonly refused: boolean };

/** How long a name's resolution may take before the host counts as unreachable. */
const RESOLVE_TIMEOUT_MS = 15_000;

/**
 * Judges a host (a URL's hostname, a CONNECT target) against the policy: by name, then by every
 * address the name resolves to, against entries written as addresses and entries whose names
 * resolve to them. `refused` is false when the host merely could not be resolved.
 */
export async function checkWebAccess(hostname: string, policy: WebAccessPolicy): Promise<WebAccess> {
  const host = canonicalHost(hostname);
  if (host === undefined) return { allowed: false, refused: true, reason: `"${hostname}" is not a valid host name; it was not opened.` };
  const resolve = policy.resolve ?? resolveHost;
  const denied = deniedPatterns(policy);
  const byName = denied.find((d) => patternMatches(d.pattern, host, true));
  if (byName) return { allowed: false, refused: true, reason: byName.message(host) };
  let addresses: string[];
  try {
    addresses = await addressesOf(host, resolve);
  } catch (error) {
    return { allowed: false, refused: false, reason: `${host} could not be resolved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  if (addresses.length === 0) return { allowed: false, refused: false, reason: `${host} could not be resolved (no address)` };
  for (const address of addresses) {
    const byAddress = denied.find((d) => patternMatches(d.pattern, address, false));
    if (byAddress) return { allowed: false, refused: true, reason: byAddress.message(`${host} (${address})`) };
  }
  const byResolution = await deniedByResolution(denied, addresses, resolve);
  if (byResolution)
    return {
      allowed: false,
      refused: true,
      reason: byResolution.entry.message(`${host} (${byResolution.address}, which ${byResolution.entry.pattern.host} resolves to)`),
    };
  const sandbox = policy.sandboxAllowedHosts;
  if (sandbox !== undefined && !sandboxAllows(sandbox, host, addresses))
    return { allowed: false, refused: true, reason: sandboxRefusal(host, sandbox.length === 0) };
  return { allowed: true, host, addresses };
}

/** A lookup for http.request / net.connect that answers with the addresses checkWebAccess passed, never asking DNS again. */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = typeof options === 'object' ? options.family : options;
    const wanted = addresses.filter((a) => family === undefined || family === 0 || isIP(a) === family);
    const list = (wanted.length > 0 ? wanted : addresses).map((address) => ({ address, family: isIP(address) }));
    if (typeof options === 'object' && options.all) (callback as (e: null, a: typeof list) => void)(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  };
}

/** The message for a host the sandbox keeps the web tools from. */
function sandboxRefusal(host: string, networkOff: boolean): string {
  return networkOff
    ? `${host} was not opened: Smith's sandbox has the network turned off, and the web tools reach no host that sandboxed commands could not (--sandbox-network or smith.sandboxNetwork turns it on).`
    : `${host} was not opened: under Smith's sandbox the web tools reach only the sandbox's allowed hosts (--sandbox-allow-host, smith.sandboxAllowedHosts), and it is not one of them.`;
}

interface DeniedEntry {
  readonly pattern: HostPattern;
  message(what: string): string;
}

function deniedPatterns(policy: WebAccessPolicy): DeniedEntry[] {
  const entries: DeniedEntry[] = [];
  for (const entry of policy.deniedDomains ?? []) {
    const pattern = parseHostPattern(entry);
    if (pattern)
      entries.push({
        pattern,
        message: (what) => `${what} is on the user's deny list for web tools (entry "${entry}"); it was not opened. Do not try to reach it another way.`,
      });
  }
  for (const rule of policy.denyRules?.() ?? []) {
    const pattern = parseHostPattern(rule.domain);
    if (pattern)
      entries.push({
        pattern,
        message: (what) => `The user's permission rule ${rule.rule} (${rule.source}) denies ${what}; it was not opened. Do not try to reach it another way.`,
      });
  }
  return entries;
}

/** The canonical addresses of a canonical host: itself for an address; this machine's for any *.localhost. */
async function addressesOf(host: string, resolve: HostResolver): Promise<string[]> {
  if (isIpAddress(host)) return [host];
  const name = isLoopbackHost(host) ? 'localhost' : host;
  const found = (await resolve(name)).map((a) => canonicalHost(a)).filter((a): a is string => a !== undefined);
  return [...new Set(found)];
}

/** A deny entry written as a name that resolves to one of the addresses (so a deny of a name holds for its address in any spelling). */
async function deniedByResolution(
  denied: readonly DeniedEntry[],
  addresses: readonly string[],
  resolve: HostResolver,
): Promise<{ entry: DeniedEntry; address: string } | undefined> {
  const named = denied.filter((d) => !d.pattern.wildcard && !isIpAddress(d.pattern.host) && !isLoopbackHost(d.pattern.host));
  const resolved = await Promise.all(named.map((d) => addressesOf(d.pattern.host, resolve).catch(() => [] as string[])));
  for (const [i, entryAddresses] of resolved.entries()) {
    const address = addresses.find((a) => entryAddresses.includes(a));
    if (address !== undefined) return { entry: named[i]!, address };
  }
  return undefined;
}

/** The sandbox's allowed hosts name the host, or every address it resolves to. */
function sandboxAllows(allowed: readonly string[], host: string, addresses: readonly string[]): boolean {
  const patterns = allowed.map(parseHostPattern).filter((p): p is HostPattern => p !== undefined);
  const named = (h: string) => patterns.some((p) => patternMatches(p, h, false));
  return named(host) || addresses.every(named);
}

/** How long a name's addresses are kept: every request of a page is judged, and deny entries resolve on each. */
const RESOLVE_CACHE_MS = 30_000;
const RESOLVE_CACHE_SIZE = 500;
const resolved = new Map<string, { readonly at: number; readonly addresses: Promise<readonly string[]> }>();

/**
 * Every address of a name (A and AAAA), as the system resolver gives them, within RESOLVE_TIMEOUT_MS;
 * kept for RESOLVE_CACHE_MS (a failure too), so a page's hundred requests ask DNS once. What is kept
 * is what was judged and what is connected to, so the cache cannot split the two.
 */
function resolveHost(name: string): Promise<readonly string[]> {
  const now = Date.now();
  const known = resolved.get(name);
  if (known && now - known.at < RESOLVE_CACHE_MS) return known.addresses;
  if (resolved.size >= RESOLVE_CACHE_SIZE) resolved.delete(resolved.keys().next().value!);
  const addresses = lookupAll(name);
  resolved.set(name, { at: now, addresses });
  return addresses;
}

async function lookupAll(name: string): Promise<readonly string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('no answer from DNS'), { code: 'ETIMEOUT' })), RESOLVE_TIMEOUT_MS);
  });
  try {
    const found = await Promise.race([dnsLookup(name, { all: true, verbatim: true }), timeout]);
    return found.map((entry) => entry.address);
  } finally {
    clearTimeout(timer);
  }
}
