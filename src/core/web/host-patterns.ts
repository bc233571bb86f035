// Host entries as users write them (deny lists, WebFetch(domain:…) rules, the sandbox's allowed
// hosts), matched on canonical hosts only (see canonical-host.ts).

import { canonicalHost, isIpAddress, isLoopbackHost } from './canonical-host.js';

/** One entry: `example.com`, `*.example.com`, an IP address in any spelling; a `:port` is ignored. */
export interface HostPattern {
  /** The entry as written, for messages. */
  readonly entry: string;
  /** The canonical host it names (without `*.`). */
  readonly host: string;
  /** `*.example.com`: hosts under example.com, not example.com itself. */
  readonly wildcard: boolean;
}

/** Parses an entry; undefined when it names no host. */
export function parseHostPattern(entry: string): HostPattern | undefined {
  let text = entry.trim();
  const wildcard = text.startsWith('*.');
  if (wildcard) text = text.slice(2);
  // A port (example.com:8080, [::1]:80) is dropped: an entry names a host at every port.
  const withPort = /^(\[[^\]]*\]|[^:]*):\d+$/.exec(text);
  if (withPort) text = withPort[1]!;
  const host = canonicalHost(text);
  if (host === undefined || (wildcard && isIpAddress(host))) return undefined;
  return { entry, host, wildcard };
}

/**
 * Whether a pattern names a canonical host. Every spelling of this machine (localhost, *.localhost,
 * 127.0.0.0/8, ::1, 0.0.0.0, ::) is one host here: a rule about one of them holds for all.
 * `subdomains`: a plain entry `example.com` also names the hosts under it (the deny list's reading).
 */
export function patternMatches(pattern: HostPattern, host: string, subdomains: boolean): boolean {
  if (pattern.wildcard) return !isIpAddress(host) && host.endsWith(`.${pattern.host}`);
  if (isLoopbackHost(pattern.host) && isLoopbackHost(host)) return true;
  if (host === pattern.host) return true;
  return subdomains && !isIpAddress(host) && !isIpAddress(pattern.host) && host.endsWith(`.${pattern.host}`);
}

/** The first entry of a list that names a host (entries that name no host are skipped). */
export function findMatchingEntry(entries: readonly string[], host: string, subdomains: boolean): string | undefined {
  const canonical = canonicalHost(host);
  if (canonical === undefined) return undefined;
  return entries.find((entry) => {
    const pattern = parseHostPattern(entry);
    return pattern !== undefined && patternMatches(pattern, canonical, subdomains);
  });
}
