/**
 * Whether a host is on an allow list of sandboxed commands' network hosts: an entry names a host
 * exactly (`registry.npmjs.org`), or `*.example.com` any host under example.com (not example.com
 * itself). Case does not matter; a trailing dot and IPv6 brackets are ignored.
 */
export function hostAllowed(allowed: readonly string[], host: string): boolean {
  const name = normalise(host);
  return allowed.some((entry) => {
    const pattern = normalise(entry);
    if (pattern.startsWith('*.')) return name.endsWith(pattern.slice(1)) && name.length > pattern.length - 1;
    return name === pattern;
  });
}

/** Problems with allow-list entries (an entry must be a host name, an IP address, or `*.` and a domain). */
export function hostAllowListProblems(allowed: readonly string[]): string[] {
  return allowed.filter((entry) => !/^(\*\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(entry.trim()) && !/^\[?[0-9a-f:]+\]?$/i.test(entry.trim())).map((entry) => `"${entry}" is not a host name, an IP address or *.domain`);
}

function normalise(host: string): string {
  return host.trim().toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
}
