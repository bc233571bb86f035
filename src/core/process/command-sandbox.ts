import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import { protectedPathArguments } from './protected-paths.js';
import { bridgeArguments } from './sandbox-bridge.js';

/** How commands are confined (`--sandbox`, `smith.sandbox`): bubblewrap with the workspace writable. */
export interface CommandSandbox {
  /** The bubblewrap binary. */
  readonly bwrap: string;
  /** The workspace's folders (all of a multi-root workspace), writable for commands. */
  readonly folders: readonly string[];
  /** Network access for commands (default off). */
  readonly network: boolean;
  /** With the network off: the proxy that takes the connections to the allowed hosts (see sandbox-bridge.ts). */
  readonly proxy?: { accept(connection: Socket): void };
  /** The workspace's .smithignore: matching paths are hidden from commands. */
  readonly ignore: IgnorePolicy;
  /** Paths outside the folders the command may read although they are under /tmp (bound read-only over the private /tmp). */
  readonly readOnly?: readonly string[];
  /** The seccomp program (unix-socket-filter.ts) bubblewrap installs before the command runs. */
  readonly filter: Buffer;
}

/** How to start a confined command: bubblewrap's arguments and the file descriptors they name. */
interface SandboxedSpawn {
  readonly args: string[];
  /** The descriptor bubblewrap reads the seccomp program from (3, or 4 after the bridge's channel). */
  readonly filterFd: number;
  /** Whether fd 3 is the bridge's channel (Node's `ipc` stdio). */
  readonly bridged: boolean;
}

/** Folders not searched for ignored paths: huge, and never what .smithignore protects. */
const NOT_SEARCHED = new Set(['.git', 'node_modules']);

/**
 * The bubblewrap arguments that run a command confined: the whole file system read-only, the
 * workspace's folders writable but for what would run outside later (protected-paths.ts), a
 * private /tmp, /dev and /proc of its own, no network unless allowed, the paths .smithignore
 * names hidden (an empty folder or an empty file in their place), no Unix sockets of its own
 * (the seccomp filter), its own PID namespace so the whole tree ends with it, and no way to type
 * into the user's terminal. With a proxy, the command is started by the bridge that leads to it.
 * Throws UnprotectableError when a protected path cannot be kept read-only.
 */
export function sandboxArguments(sandbox: CommandSandbox, cwd: string): SandboxedSpawn {
  const bridged = !sandbox.network && sandbox.proxy !== undefined;
  const filterFd = bridged ? 4 : 3;
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // Before the writable folders, so a writable folder inside one of them stays writable.
  for (const path of sandbox.readOnly ?? []) args.push('--ro-bind-try', path, path);
  for (const folder of sandbox.folders) args.push('--bind', folder, folder);
  // Before the hidden paths: a protected folder .smithignore names stays hidden.
  args.push(...protectedPathArguments(sandbox.folders));
  for (const hidden of sandbox.folders.flatMap((folder) => ignoredPaths(folder, sandbox.ignore))) {
    args.push(...(hidden.folder ? ['--tmpfs', hidden.path] : ['--ro-bind', '/dev/null', hidden.path]));
  }
  if (!sandbox.network) args.push('--unshare-net');
  args.push('--unshare-pid', '--die-with-parent', '--new-session', '--seccomp', String(filterFd), '--chdir', cwd, '--');
  if (bridged) args.push(...bridgeArguments());
  return { args, filterFd, bridged };
}

/** The paths under `root` the policy ignores (an ignored folder once, not its contents). */
export function ignoredPaths(root: string, policy: IgnorePolicy): Array<{ path: string; folder: boolean }> {
  const found: Array<{ path: string; folder: boolean }> = [];
  const stack = [root];
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const folder = entry.isDirectory();
      if (policy.isIgnored(path)) found.push({ path, folder });
      else if (folder && !NOT_SEARCHED.has(entry.name)) stack.push(path);
    }
  }
  return found;
}
