// The browser's proxy for raw sockets: a CONNECT tunnel (https, wss) and a plain ws:// upgrade are
// judged by the host before any byte goes out; an allowed one is joined byte for byte with the
// server (a real TCP echo server on 127.0.0.1), a refused one is answered by the proxy and reported.
import assert from 'node:assert/strict';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { WebGuardProxy } from '../../../src/core/browser/web-guard-proxy.js';

/** Resolves with what the socket received once `done` holds for it; rejects if it closes first. */
function readUntil(socket: Socket, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (done(text)) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed after ${JSON.stringify(text)}`)));
  });
}

describe('the web guard proxy: tunnels and upgrades', () => {
  let echo: Server;
  let echoPort: number;
  let proxy: WebGuardProxy;
  let proxyPort: number;
  const refused: string[] = [];
  const sockets: Socket[] = [];

  const open = async (): Promise<Socket> => {
    const socket = connect(proxyPort, '127.0.0.1');
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return socket;
  };

  before(async () => {
    echo = createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoPort = (echo.address() as AddressInfo).port;
    proxy = await WebGuardProxy.start({ deniedDomains: ['denied.example'] }, (target, reason) => refused.push(`${target}: ${reason}`));
    proxyPort = Number(new URL(proxy.url).port);
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await proxy.close();
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  });

  test('an allowed CONNECT is established and then joined both ways with the server', async () => {
    const socket = await open();
    socket.write(`CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: 127.0.0.1:${echoPort}\r\n\r\n`);
    assert.equal(await readUntil(socket, (text) => text.endsWith('\r\n\r\n')), 'HTTP/1.1 200 Connection Established\r\n\r\n');
    socket.write('ping through the tunnel\n');
    assert.equal(await readUntil(socket, (text) => text.endsWith('\n')), 'ping through the tunnel\n');
  });

  test('a denied host is answered 403 with the reason, reported, and never reached', async () => {
    const socket = await open();
    socket.write(`CONNECT denied.example:${echoPort} HTTP/1.1\r\nHost: denied.example:${echoPort}\r\n\r\n`);
    const answer = await readUntil(socket, (text) => text.includes('\r\n\r\n') && text.endsWith('\n'));
    assert.match(answer, /^HTTP\/1\.1 403 Forbidden\r\nContent-Type: text\/plain\r\nConnection: close\r\n\r\n.*denied\.example/);
    assert.ok(
      refused.some((line) => line.startsWith(`denied.example:${echoPort}: `)),
      refused.join('\n'),
    );
  });

  test('a server that refuses the connection is a 502 naming the host and the error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const socket = await open();
    socket.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const answer = await readUntil(socket, (text) => text.includes('\r\n\r\n') && text.endsWith('\n'));
    assert.match(answer, new RegExp(`^HTTP/1\\.1 502 Bad Gateway\\r\\n[\\s\\S]*\\r\\n\\r\\n127\\.0\\.0\\.1:${port}: connect ECONNREFUSED`));
  });

  test('an allowed ws:// upgrade reaches the server as an origin-form request without the proxy headers', async () => {
    const socket = await open();
    socket.write(
      `GET http://127.0.0.1:${echoPort}/chat?room=1 HTTP/1.1\r\nHost: 127.0.0.1:${echoPort}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nProxy-Authorization: Basic c2VjcmV0\r\n\r\n`,
    );
    // The echo server sends back what it received: the request as the proxy passed it on.
    const passed = await readUntil(socket, (text) => text.endsWith('\r\n\r\n'));
    assert.match(passed, /^GET \/chat\?room=1 HTTP\/1\.1\r\n/);
    assert.match(passed, /\r\nUpgrade: websocket\r\n/);
    assert.doesNotMatch(passed, /Proxy-Authorization/i);
    socket.write('frame\n');
    assert.equal(await readUntil(socket, (text) => text.endsWith('\n')), 'frame\n');
  });

  test('a ws:// upgrade to a denied host is answered 403 and reported', async () => {
    const socket = await open();
    socket.write(
      `GET http://denied.example:${echoPort}/chat HTTP/1.1\r\nHost: denied.example:${echoPort}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
    );
    const answer = await readUntil(socket, (text) => text.includes('\r\n\r\n') && text.endsWith('\n'));
    assert.match(answer, /^HTTP\/1\.1 403 Forbidden\r\n/);
    assert.ok(
      refused.some((line) => line.startsWith(`http://denied.example:${echoPort}/chat: `)),
      refused.join('\n'),
    );
  });
});
