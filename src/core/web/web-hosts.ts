// Which hosts the web tools may reach without saying more: pages on this machine are the user's own
// work; anything else is named in the approval. Where they may go at all is web-access.ts.

import { canonicalHost, isLoopbackHost } from './canonical-host.js';

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

/** True for a host on this machine in any spelling: localhost (and *.localhost), 127.0.0.0/8, ::1, 0.0.0.0, ::, [::ffff:127.0.0.1] … */
export function isLocalHost(hostname: string): boolean {
  const host = canonicalHost(hostname);
  return host !== undefined && isLoopbackHost(host);
}
