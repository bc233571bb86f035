/**
 * Inside the sandbox, before the command: a local port that leads to the proxy's Unix socket, and
 * the command started with HTTP(S)_PROXY pointing at it, so the tools that honour those variables
 * (curl, npm, pip, git, …) reach the allowed hosts. The sandbox's own loopback stays direct.
 * Runs as `node -e <this function's source> SOCKET -- FILE ARGS…`, so it must use nothing from
 * outside its own body.
 */
export function sandboxBridgeMain(): void {
  const net = require('node:net') as typeof import('node:net');
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  const [socketPath, separator, file, ...args] = process.argv.slice(1);
  if (!socketPath || separator !== '--' || !file) {
    process.stderr.write('smith sandbox bridge: usage SOCKET -- FILE ARGS\n');
    process.exit(2);
  }
  const server = net.createServer((local) => {
    const remote = net.connect(socketPath);
    local.pipe(remote).pipe(local);
    local.on('error', () => remote.destroy());
    remote.on('error', () => local.destroy());
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const proxy = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = { ...process.env, HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy, NO_PROXY: 'localhost,127.0.0.1,::1', no_proxy: 'localhost,127.0.0.1,::1' };
    delete env.ELECTRON_RUN_AS_NODE;
    const child = spawn(file, args, { stdio: 'inherit', env });
    child.on('error', (error) => {
      process.stderr.write(`${file}: ${error.message}\n`);
      process.exit(127);
    });
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (require('node:os') as typeof import('node:os')).constants.signals[signal] : 1)));
  });
}

/** The arguments that put the bridge before a sandboxed command (`node` is the running Node, or the editor's Electron as Node). */
export function bridgeArguments(socketPath: string): string[] {
  return [process.execPath, '-e', `(${sandboxBridgeMain.toString()})()`, socketPath, '--'];
}
