import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { hostAllowed } from './host-allow-list.js';

/**
 * An HTTP proxy that lets sandboxed commands reach only the allowed hosts: HTTPS through CONNECT,
 * plain HTTP by absolute URL. It listens nowhere: the sandbox has no network of its own, and its
 * bridge hands each connection over (see sandbox-bridge.ts), so a host not on the list is simply
 * unreachable.
 */
export class NetworkProxy {
  private constructor(
    private readonly server: Server,
    private readonly open: Set<Socket>,
  ) {}

  /** Starts a proxy for these hosts (see hostAllowed for the patterns). */
  static start(allowedHosts: readonly string[]): NetworkProxy {
    const open = new Set<Socket>();
    const server = createServer((req, res) => forward(allowedHosts, req, res));
    server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => tunnel(allowedHosts, req, client, head, open));
    return new NetworkProxy(server, open);
  }

  /** Serves a connection a sandboxed command opened to its bridge. */
  accept(connection: Socket): void {
    this.open.add(connection);
    // A command that drops its connection ends only that connection.
    connection.on('error', () => connection.destroy());
    connection.on('close', () => this.open.delete(connection));
    this.server.emit('connection', connection);
    // Handed over paused (nothing was read in the sandbox); the HTTP parser reads from here on.
    connection.resume();
  }

  /** Ends its connections. */
  close(): void {
    for (const socket of this.open) socket.destroy();
    this.open.clear();
  }
}

function refusal(host: string): string {
  return `Smith's command sandbox does not let commands reach ${host}: it is not one of the allowed hosts (smith.sandboxAllowedHosts, --sandbox-allow-host).\n`;
}

/** HTTPS (and anything else tunnelled): CONNECT host:port. */
function tunnel(allowed: readonly string[], req: IncomingMessage, client: Socket, head: Buffer, open: Set<Socket>): void {
  const { host, port } = splitHostPort(req.url ?? '', 443);
  if (!hostAllowed(allowed, host)) {
    client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${refusal(host)}`);
    return;
  }
  const upstream = connect(port, host, () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  open.add(upstream);
  upstream.on('close', () => open.delete(upstream));
  upstream.on('error', (error) =>
    client.end(`HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${host}:${port}: ${error.message}\n`),
  );
  client.on('error', () => upstream.destroy());
}

/** Plain HTTP: the request line holds the absolute URL. */
function forward(allowed: readonly string[], req: IncomingMessage, res: ServerResponse): void {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    res.writeHead(400, { 'Content-Type': 'text/plain' }).end('This is a proxy: send absolute URLs.\n');
    return;
  }
  if (url.protocol !== 'http:' || !hostAllowed(allowed, url.hostname)) {
    res.writeHead(403, { 'Content-Type': 'text/plain' }).end(refusal(url.hostname));
    return;
  }
  const upstream = request(
    { host: url.hostname, port: url.port || 80, method: req.method, path: `${url.pathname}${url.search}`, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
    res.end(`${url.host}: ${error.message}\n`);
  });
  req.pipe(upstream);
}

function splitHostPort(target: string, defaultPort: number): { host: string; port: number } {
  const match = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(target);
  return { host: match?.[1] ?? target, port: match?.[2] ? Number(match[2]) : defaultPort };
}
