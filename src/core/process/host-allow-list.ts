import { findMatchingEntry } from '../web/host-patterns.js';

/**
 * Whether a host is on an allow list of network hosts: an entry names a host exactly
 * (`registry.npmjs.org`), or `*.example.com` any host under example.com (not example.com itself).
 * Hosts are compared in their canonical form (see canonical-host.ts): case, trailing dots, IPv6
 * brackets and the numeric spellings of an IP address do not matter, and every spelling of this
 * machine (localhost, 127.0.0.1, ::1, 0.0.0.0) is one host.
 */
export function hostAllowed(allowed: readonly string[], host: string): boolean {
  return findMatchingEntry(allowed, host, false) !== undefined;
}

/** Problems with allow-list entries (an entry must be a host name, an IP address, or `*.` and a domain). */
export function hostAllowListProblems(allowed: readonly string[]): string[] {
  return allowed
    .filter((entry) => !/^(\*\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?\.?$/i.test(entry.trim()) && !/^\[?[0-9a-f:.]+\]?$/i.test(entry.trim()))
    .map((entry) => `"${entry}" is not a host name, an IP address or *.domain`);
}
