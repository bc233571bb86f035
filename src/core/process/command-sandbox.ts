import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import { bridgeArguments } from './sandbox-bridge.js';

/** How commands are confined (`--sandbox`, `smith.sandbox`): bubblewrap with the workspace writable. */
export interface CommandSandbox {
  /** The bubblewrap binary. */
  readonly bwrap: string;
  /** The workspace's folders (all of a multi-root workspace), writable for commands. */
  readonly folders: readonly string[];
  /** Network access for commands (default off). */
  readonly network: boolean;
  /** With the network off: a proxy that lets commands reach the allowed hosts only. */
  readonly proxy?: { readonly folder: string; readonly socketPath: string };
  /** The workspace's .smithignore: matching paths are hidden from commands. */
  readonly ignore: IgnorePolicy;
}

/** Folders not searched for ignored paths: huge, and never what .smithignore protects. */
const NOT_SEARCHED = new Set(['.git', 'node_modules']);

/**
 * The bubblewrap arguments that run a command confined: the whole file system read-only, the
 * workspace's folders writable, a private /tmp, /dev and /proc of its own, no network unless allowed, the
 * paths .smithignore names hidden (an empty folder or an empty file in their place), its own PID
 * namespace so the whole tree ends with it, and no way to type into the user's terminal. With a
 * proxy, the command is started by the bridge that leads to it (sandbox-bridge.ts).
 */
export function sandboxArguments(sandbox: CommandSandbox, cwd: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  for (const folder of sandbox.folders) args.push('--bind', folder, folder);
  for (const hidden of sandbox.folders.flatMap((folder) => ignoredPaths(folder, sandbox.ignore))) {
    args.push(...(hidden.folder ? ['--tmpfs', hidden.path] : ['--ro-bind', '/dev/null', hidden.path]));
  }
  if (!sandbox.network) args.push('--unshare-net');
  // The proxy's socket is the one way out of a sandbox without network (its folder may be under the private /tmp).
  if (!sandbox.network && sandbox.proxy) args.push('--bind', sandbox.proxy.folder, sandbox.proxy.folder);
  args.push('--unshare-pid', '--die-with-parent', '--new-session', '--chdir', cwd, '--');
  if (!sandbox.network && sandbox.proxy) args.push(...bridgeArguments(sandbox.proxy.socketPath));
  return args;
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
