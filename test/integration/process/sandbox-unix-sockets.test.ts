// The command sandbox for real (bubblewrap and its seccomp filter): a sandboxed command cannot
// reach a Unix socket outside (docker.sock, ssh-agent, D-Bus), by path or in the abstract
// namespace, with any client; the proxy's bridge still works under the same filter.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ChildProcessRunner } from '../../../src/core/process/child-process-runner.js';
import { NetworkProxy } from '../../../src/core/process/network-proxy.js';
import { findSandbox } from '../../../src/core/process/task-sandbox.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { findExecutable } from '../../../src/core/search/find-executable.js';

async function run(runner: ChildProcessRunner, command: string, cwd: string): Promise<{ output: string; exitCode: number | null }> {
  const running = runner.start(command, { cwd });
  const chunks: string[] = [];
  running.onOutput((chunk) => chunks.push(chunk));
  const exit = await running.exited;
  return { output: chunks.join(''), exitCode: exit.exitCode };
}

/** A Unix socket server that counts connections and answers each with a word. */
async function socketServer(path: string): Promise<{ server: Server; connections: () => number }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.end('REACHED\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  return { server, connections: () => count };
}

/** Every client we have, each printing REACHED when it got through and its exit status otherwise. */
async function clients(path: string): Promise<string[]> {
  const node = `node -e "require('net').connect(process.argv[1]).on('data', (d) => process.stdout.write(d)).on('error', (e) => { console.log('node: ' + e.code); process.exit(1); })" '${path}'`;
  const list = [node];
  if (await findExecutable('python3'))
    list.push(`python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(s.recv(100).decode())" '${path}'`);
  if (await findExecutable('curl')) list.push(`curl -sS --unix-socket '${path}' http://x/ ; echo curl=$?`);
  if (await findExecutable('socat')) list.push(`socat - UNIX-CONNECT:'${path}' </dev/null; echo socat=$?`);
  return list;
}

describe('sandboxed commands and Unix sockets', async () => {
  const found = await findSandbox();
  const skip = 'reason' in found ? found.reason : false;
  let ws: TempWorkspace;
  // Outside the workspace and outside /tmp (which is private to the sandbox): like /run/docker.sock.
  let outsideDir: string;
  before(() => {
    ws = createTempWorkspace('smith-sockets-');
    outsideDir = mkdtempSync(join(process.cwd(), '.sock-'));
  });
  after(() => {
    ws.dispose();
    rmSync(outsideDir, { recursive: true, force: true });
  });

  for (const network of [false, true]) {
    test(`no client reaches a socket outside the sandbox, by path or abstract name (network ${network ? 'on' : 'off'})`, { skip }, async () => {
      if ('reason' in found) return;
      const runner = new ChildProcessRunner({ sandbox: { ...found, folders: [ws.root], network, ignore: NOTHING_IGNORED } });
      const inWorkspace = await socketServer(join(ws.root, 'agent.sock'));
      const outside = await socketServer(join(outsideDir, 'docker.sock'));
      // The abstract namespace belongs to the network namespace: with the network on, only the filter stands in the way.
      const abstractName = `smith-test-${process.pid}-${network}`;
      const abstract = await socketServer(`\0${abstractName}`);
      try {
        for (const path of [join(ws.root, 'agent.sock'), join(outsideDir, 'docker.sock')]) {
          for (const client of await clients(path)) {
            const result = await run(runner, client, ws.root);
            assert.doesNotMatch(result.output, /REACHED/, `${client} got through: ${result.output}`);
          }
        }
        const node = await run(
          runner,
          `node -e "require('net').connect('\\0${abstractName}').on('data', (d) => process.stdout.write(d)).on('error', (e) => console.log('node: ' + e.code))"`,
          ws.root,
        );
        assert.match(node.output, /node: EPERM/);
        const direct = await run(
          runner,
          `node -e "require('net').connect(process.argv[1]).on('error', (e) => console.log('node: ' + e.code))" '${join(outsideDir, 'docker.sock')}'`,
          ws.root,
        );
        // Refused by the filter (not merely missing), as a command's error says.
        assert.match(direct.output, /node: EPERM/);
        assert.equal(inWorkspace.connections() + outside.connections() + abstract.connections(), 0);
        // The same client outside the sandbox gets through: the test's servers answer.
        const unconfined = await run(new ChildProcessRunner(), (await clients(join(outsideDir, 'docker.sock')))[0]!, ws.root);
        assert.match(unconfined.output, /REACHED/);
      } finally {
        for (const s of [inWorkspace, outside, abstract]) s.server.close();
      }
    });
  }

  test('a socket pair (how programs talk to their own children) still works; a datagram pair, which can send to any socket path, does not', {
    skip,
  }, async () => {
    if ('reason' in found) return;
    if (!(await findExecutable('python3'))) return;
    const runner = new ChildProcessRunner({ sandbox: { ...found, folders: [ws.root], network: false, ignore: NOTHING_IGNORED } });
    const stream = await run(runner, `python3 -c "import socket; a,b=socket.socketpair(); a.send(b'PAIR-OK'); print(b.recv(10).decode())"`, ws.root);
    assert.match(stream.output, /PAIR-OK/);
    const dgram = await run(runner, `python3 -c "import socket; socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)"`, ws.root);
    assert.match(dgram.output, /PermissionError/);
    // Node's own child processes (which use socket pairs for their pipes) run as usual.
    const nested = await run(runner, `node -e "require('child_process').execFile('echo', ['CHILD-OK'], (e, out) => process.stdout.write(out))"`, ws.root);
    assert.match(nested.output, /CHILD-OK/);
  });

  test('behind the proxy, the bridge hands connections out though it has no Unix socket; the command inherits nothing of it', { skip }, async () => {
    if ('reason' in found) return;
    let hits = 0;
    const { createServer: createHttpServer } = await import('node:http');
    const web = createHttpServer((_req, res) => {
      hits++;
      res.end('WEB-REACHED');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const port = (web.address() as import('node:net').AddressInfo).port;
    const proxy = NetworkProxy.start(['127.0.0.1']);
    const runner = new ChildProcessRunner({ sandbox: { ...found, folders: [ws.root], network: false, ignore: NOTHING_IGNORED, proxy } });
    try {
      // 127.0.0.1 is the sandbox's own loopback unless the proxy is asked explicitly.
      const fetched = await run(
        runner,
        `curl -sS --noproxy '' --proxy "$HTTP_PROXY" http://127.0.0.1:${port}/; echo; ls /proc/self/fd; env | grep -c NODE_CHANNEL`,
        ws.root,
      );
      assert.match(fetched.output, /WEB-REACHED/);
      assert.equal(hits, 1);
      // The same descriptors as a command run without the sandbox: the bridge's channel stays with the bridge.
      const fds = (output: string) =>
        output
          .split('\n')
          .filter((line) => /^\d+$/.test(line))
          .slice(0, -1)
          .sort()
          .join(' ');
      const plain = await run(new ChildProcessRunner(), 'ls /proc/self/fd; echo 0', ws.root);
      assert.equal(fds(fetched.output), fds(plain.output));
      assert.match(fetched.output, /^0$/m);
      const socketTry = await run(runner, `node -e "require('net').connect('/tmp/x.sock').on('error', (e) => console.log('node: ' + e.code))"`, ws.root);
      assert.match(socketTry.output, /node: EPERM/);
    } finally {
      proxy.close();
      web.close();
    }
  });
});
