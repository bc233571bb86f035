// Which hosts the web tools may reach without saying more: pages on this machine are the user's own
// work; anything else is named in the approval, and the user's deny list is never reached.

/** Parses a URL the model gave for a web tool; only http and https are allowed. Returns the URL or why not. */
export function parseWebUrl(text: string): URL | string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return `"${text}" is not a valid URL; give a full address such as http://localhost:3000/ or https://example.com/page.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // "localhost:3000" parses as the scheme "localhost:"; the model meant a host.
    if (/^[\w.-]+:\d+/.test(text.trim())) return `"${text.trim()}" has no scheme; give the full URL, e.g. http://${text.trim()}`;
    return `Only http and https URLs can be opened, not ${url.protocol}`;
  }
  return url;
}

/** True for a host on this machine: localhost (and *.localhost), 127.0.0.0/8, ::1, 0.0.0.0. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1' || host === '0.0.0.0';
}

/**
 * The deny-list entry that matches `hostname`, if any. An entry `example.com` matches the host and
 * its subdomains; `*.example.com` only the subdomains.
 */
export function deniedBy(hostname: string, denied: readonly string[]): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return denied.find((entry) => {
    const pattern = entry.trim().toLowerCase().replace(/\.$/, '');
    if (pattern === '') return false;
    if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
    return host === pattern || host.endsWith(`.${pattern}`);
  });
}

/** The refusal the model gets for a denied host. */
export function deniedMessage(hostname: string, entry: string): string {
  return `${hostname} is on the user's deny list for web tools (entry "${entry}"); it was not opened. Do not try to reach it another way.`;
}
