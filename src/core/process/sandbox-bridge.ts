/** The message the bridge sends with each connection it hands over. */
export const BRIDGE_CONNECTION = 'smith-sandbox-connection';

/**
 * Inside the sandbox, before the command: a local port whose connections are handed, over Node's
 * IPC channel (a socket pair made outside, inherited through bubblewrap), to Smith's proxy
 * outside; and the command started with HTTP(S)_PROXY pointing at that port, so the tools that
 * honour those variables (curl, npm, pip, git, …) reach the allowed hosts. The bridge opens no
 * socket of its own to the outside, so it runs under the same seccomp filter as the command (no
 * Unix sockets). The sandbox's own loopback stays direct. Runs as `node -e <this function's
 * source> MESSAGE -- FILE ARGS…`, so it must use nothing from outside its own body.
 */
function sandboxBridgeMain(): void {
  const net = require('node:net') as typeof import('node:net');
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  const [message, separator, file, ...args] = process.argv.slice(1);
  if (!message || separator !== '--' || !file || !process.send) {
    process.stderr.write('smith sandbox bridge: usage MESSAGE -- FILE ARGS, with an IPC channel\n');
    process.exit(2);
  }
  const send = process.send.bind(process);
  // Paused, so nothing is read here: the proxy outside reads the request.
  const server = net.createServer({ pauseOnConnect: true }, (local) => send(message, local));
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const proxy = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HTTP_PROXY: proxy,
      HTTPS_PROXY: proxy,
      http_proxy: proxy,
      https_proxy: proxy,
      NO_PROXY: 'localhost,127.0.0.1,::1',
      no_proxy: 'localhost,127.0.0.1,::1',
    };
    delete env.ELECTRON_RUN_AS_NODE;
    delete env.NODE_CHANNEL_FD;
    delete env.NODE_CHANNEL_SERIALIZATION_MODE;
    // The channel is the bridge's alone: only stdin, stdout and stderr reach the command.
    const child = spawn(file, args, { stdio: ['inherit', 'inherit', 'inherit'], env });
    child.on('error', (error) => {
      process.stderr.write(`${file}: ${error.message}\n`);
      process.exit(127);
    });
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (require('node:os') as typeof import('node:os')).constants.signals[signal] : 1)));
  });
}

/** The arguments that put the bridge before a sandboxed command (`node` is the running Node, or the editor's Electron as Node). */
export function bridgeArguments(): string[] {
  return [process.execPath, '-e', `(${sandboxBridgeMain.toString()})()`, BRIDGE_CONNECTION, '--'];
}
