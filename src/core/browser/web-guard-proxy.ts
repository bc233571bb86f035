// The browser's only way out: an HTTP proxy on 127.0.0.1 that the browser context is told to use
// for every request, loopback included. Each request (a navigation, each redirect hop the browser
// follows, every subresource, fetch and WebSocket) is judged by checkWebAccess before it goes out,
// and goes to the addresses that were judged. Playwright's own request routing never sees redirect
// hops, which is why the judging happens here, where every hop passes.

import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { checkWebAccess, pinnedLookup, type WebAccessPolicy } from '../web/web-access.js';

/** Told of each request the policy refused: the URL (or host:port of a tunnel) and why. */
type RefusalListener = (target: string, reason: string) => void;

/** On the proxy's own answers: why the request did not go through (URI-encoded), for navigate() to report as a load failure. */
export const PROXY_ERROR_HEADER = 'x-smith-proxy-error';
/** Headers that belong to the hop to the proxy, not to the request forwarded (and the proxy's own header, which no site may send). */
const HOP_HEADERS = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade', PROXY_ERROR_HEADER]);

/** Chromium's names for the network errors a direct connection would have shown. */
const NET_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'net::ERR_CONNECTION_REFUSED',
  ECONNRESET: 'net::ERR_CONNECTION_RESET',
  ETIMEDOUT: 'net::ERR_CONNECTION_TIMED_OUT',
  EHOSTUNREACH: 'net::ERR_ADDRESS_UNREACHABLE',
  ENETUNREACH: 'net::ERR_ADDRESS_UNREACHABLE',
};

export class WebGuardProxy {
  private constructor(
    private readonly server: Server,
    /** The address to give the browser, http://127.0.0.1:PORT. */
    readonly url: string,
    private readonly open: Set<Socket | Duplex>,
  ) {}

  /** Starts a proxy that lets through only what `policy` allows. */
  static async start(policy: WebAccessPolicy, onRefused: RefusalListener): Promise<WebGuardProxy> {
    const open = new Set<Socket | Duplex>();
    const track = (socket: Socket | Duplex) => {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    };
    const server = createServer((req, res) => void forward(policy, onRefused, req, res));
    const guard: SocketGuard = { policy, onRefused, track };
    server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => void tunnel(guard, req, client, head));
    server.on('upgrade', (req: IncomingMessage, client: Duplex, head: Buffer) => void upgrade(guard, req, client, head));
    server.on('connection', track);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    server.unref();
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return new WebGuardProxy(server, `http://127.0.0.1:${port}`, open);
  }

  /** Stops the proxy and ends its connections. */
  async close(): Promise<void> {
    for (const socket of this.open) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A page that says why, so the model sees the reason in the page as well as in the console. */
function refusalPage(reason: string): string {
  return `<!doctype html><title>Blocked by Smith</title><h1>Blocked by Smith</h1><p>${reason.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`;
}

/** Plain HTTP: the request line holds the absolute URL. */
async function forward(policy: WebAccessPolicy, onRefused: RefusalListener, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('This is a proxy: send absolute URLs.\n');
    return;
  }
  if (url.protocol !== 'http:') {
    res.writeHead(400, { 'content-type': 'text/plain' }).end(`Only http goes through this proxy, not ${url.protocol}\n`);
    return;
  }
  const access = await checkWebAccess(url.hostname, policy);
  if (!access.allowed) {
    if (access.refused) onRefused(url.href, access.reason);
    const reason = access.refused ? access.reason : `net::ERR_NAME_NOT_RESOLVED (${access.reason})`;
    res
      .writeHead(access.refused ? 403 : 502, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        [PROXY_ERROR_HEADER]: encodeURIComponent(reason),
      })
      .end(refusalPage(reason));
    return;
  }
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_HEADERS.has(name)));
  const upstream = request(url, { method: req.method, headers, lookup: pinnedLookup(access.addresses) }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, stripHop(answer.rawHeaders));
    answer.pipe(res);
  });
  upstream.on('error', (error) => {
    if (res.headersSent) return void res.destroy();
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason = `${NET_ERRORS[code] ?? `net::ERR_FAILED (${code || error.message})`} at ${url.href}`;
    res.writeHead(502, { 'content-type': 'text/plain', [PROXY_ERROR_HEADER]: encodeURIComponent(reason) }).end(`${reason}\n`);
  });
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}

/** What the handlers of raw sockets (CONNECT, upgrade) share: the policy, who hears of refusals, and the proxy's record of open sockets. */
interface SocketGuard {
  readonly policy: WebAccessPolicy;
  readonly onRefused: RefusalListener;
  readonly track: (socket: Socket | Duplex) => void;
}

/** HTTPS and WebSockets over TLS: CONNECT host:port, judged by the host. */
async function tunnel(guard: SocketGuard, req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
  guard.track(client);
  client.on('error', () => client.destroy());
  const { host, port } = splitHostPort(req.url ?? '', 443);
  const access = await checkWebAccess(host, guard.policy);
  if (!access.allowed) {
    if (access.refused) guard.onRefused(`${host}:${port}`, access.reason);
    answerAndClose(client, access.refused ? '403 Forbidden' : '502 Bad Gateway', access.reason);
    return;
  }
  const upstream = splice(guard, client, head, { host, port, addresses: access.addresses }, () => client.write('HTTP/1.1 200 Connection Established\r\n\r\n'));
  upstream.on('error', (error) => answerAndClose(client, '502 Bad Gateway', `${host}:${port}: ${error.message}`));
}

/** A plain ws:// upgrade sent to the proxy with an absolute URL: judged, then passed on byte for byte. */
async function upgrade(guard: SocketGuard, req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
  guard.track(client);
  client.on('error', () => client.destroy());
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    return;
  }
  const access = await checkWebAccess(url.hostname, guard.policy);
  if (!access.allowed) {
    if (access.refused) guard.onRefused(url.href, access.reason);
    answerAndClose(client, '403 Forbidden', access.reason);
    return;
  }
  const target = { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) || 80, addresses: access.addresses };
  const upstream = splice(guard, client, head, target, (socket) => {
    const lines = [`${req.method} ${url.pathname}${url.search} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      if (!req.rawHeaders[i]!.toLowerCase().startsWith('proxy-')) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    }
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
  upstream.on('error', () => client.destroy());
}

/**
 * Connects to the judged addresses of `target`; once connected, `opened` says its first words,
 * the bytes the client sent early follow, and the two sockets are joined both ways until either closes.
 */
function splice(
  guard: SocketGuard,
  client: Duplex,
  head: Buffer,
  target: { readonly host: string; readonly port: number; readonly addresses: readonly string[] },
  opened: (upstream: Socket) => void,
): Socket {
  const upstream = connect({ host: target.host, port: target.port, lookup: pinnedLookup(target.addresses) }, () => {
    opened(upstream);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  guard.track(upstream);
  client.on('close', () => upstream.destroy());
  return upstream;
}

/** Ends a raw client connection with a plain-text HTTP answer. */
function answerAndClose(client: Duplex, status: string, text: string): void {
  client.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${text}\n`);
}

function stripHop(raw: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (!HOP_HEADERS.has(raw[i]!.toLowerCase())) kept.push(raw[i]!, raw[i + 1]!);
  }
  return kept;
}

function splitHostPort(target: string, defaultPort: number): { host: string; port: number } {
  const match = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(target);
  return { host: match?.[1] ?? target, port: match?.[2] ? Number(match[2]) : defaultPort };
}
