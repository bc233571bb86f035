// A GET for the web tools that goes only where the policy allows: every hop of a redirect chain is
// judged (checkWebAccess) before it is requested, and the connection goes to the very addresses
// that were judged. The body is a stream, so callers read only as much as they keep.

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { checkWebAccess, pinnedLookup, type WebAccessPolicy } from './web-access.js';

/** Most redirects one fetch follows; a loop ends here too. */
const MAX_REDIRECTS = 10;

/** A hop the policy refused; its message says which rule, for the model. */
export class WebAccessRefused extends Error {}

/** An answer that is not a redirect. */
interface GuardedResponse {
  /** The URL that answered (after redirects). */
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string;
  /** The body, decoded from gzip, deflate or br; destroy it to stop the download. */
  readonly body: Readable;
}

interface GuardedFetchOptions {
  readonly policy: WebAccessPolicy;
  readonly signal?: AbortSignal;
  readonly headers?: Readonly<Record<string, string>>;
  /** A POST with this body (an API call) instead of a GET; its redirects are not followed but fail. */
  readonly post?: string;
}

/** Fetches `url` with GET (or POST), following a GET's redirects itself so that each hop is judged first. */
export async function guardedFetch(url: string, options: GuardedFetchOptions): Promise<GuardedResponse> {
  let target = new URL(url);
  for (let hop = 0; ; hop++) {
    const via = hop === 0 ? '' : `it redirects to ${target.href}, and `;
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      throw new WebAccessRefused(`${via}only http and https pages can be fetched, not ${target.protocol}`);
    const access = await checkWebAccess(target.hostname, options.policy);
    if (!access.allowed) {
      if (access.refused) throw new WebAccessRefused(`${via}${access.reason}`);
      throw new Error(`${via}${access.reason}`);
    }
    const response = await get(target, access.addresses, options);
    const location = response.headers.location;
    if (response.statusCode === undefined || response.statusCode < 300 || response.statusCode >= 400 || location === undefined) return answer(target, response);
    response.destroy();
    // Repeating a POST elsewhere (an API key in its headers) is nothing an API call should do unasked.
    if (options.post !== undefined)
      throw new Error(`it answered HTTP ${response.statusCode}, a redirect to ${new URL(location, target).href}, which a POST does not follow`);
    if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects (the last to ${new URL(location, target).href})`);
    target = new URL(location, target);
  }
}

function get(url: URL, addresses: readonly string[], options: GuardedFetchOptions): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: options.post === undefined ? 'GET' : 'POST',
      // The name is kept for the Host header and TLS; only the address comes from the check.
      lookup: pinnedLookup(addresses),
      headers: { 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'Smith (web_fetch)', ...options.headers },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end(options.post);
  });
}

function answer(url: URL, response: IncomingMessage): GuardedResponse {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  let body: Readable = response;
  if (decoder) {
    response.on('error', (error) => decoder.destroy(error));
    decoder.on('close', () => response.destroy());
    body = response.pipe(decoder);
  }
  return {
    url: url.href,
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? '',
    contentType: String(response.headers['content-type'] ?? '').toLowerCase(),
    body,
  };
}
