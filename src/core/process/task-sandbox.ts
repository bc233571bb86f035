import type { Host } from '../ports.js';
import { findExecutable } from '../search/find-executable.js';
import type { AutoApprovePolicy } from '../task/approval-policy.js';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import { ChildProcessRunner } from './child-process-runner.js';
import { hostAllowListProblems } from './host-allow-list.js';
import { NetworkProxy } from './network-proxy.js';

/** The user's sandbox settings (`--sandbox`, `smith.sandbox`): what confined commands may reach. */
export interface SandboxRequest {
  /** The whole network (otherwise none, or only `allowedHosts`). */
  readonly network: boolean;
  /** Hosts commands may reach through Smith's proxy when the network is off (`*.example.com` allowed). */
  readonly allowedHosts: readonly string[];
}

/** A task's commands as the sandbox request makes them: the host and policy to use, and what to stop afterwards. */
export interface ConfinedCommands {
  readonly host: Host;
  readonly policy: AutoApprovePolicy | (() => AutoApprovePolicy);
  dispose(): Promise<void>;
}

/**
 * Confines a task's commands with bubblewrap (see command-sandbox.ts): they run as child processes
 * under `bwrap`, the workspace's folders writable, no network but the allowed hosts (through a proxy) or the
 * whole network when asked. Without bubblewrap nothing is confined: the user is told, and commands
 * are asked for instead of auto-approved, since the auto-approval was given for confined commands.
 */
export async function confineCommands(request: SandboxRequest | undefined, folders: readonly string[], ignore: IgnorePolicy, host: Host, policy: AutoApprovePolicy | (() => AutoApprovePolicy)): Promise<ConfinedCommands> {
  if (!request) return { host, policy, dispose: async () => {} };
  const bwrap = await findExecutable('bwrap');
  if (!bwrap) {
    host.notify('warning', 'The command sandbox needs bubblewrap (bwrap), which is not installed (Debian and Ubuntu: apt-get install bubblewrap), so commands are not sandboxed; they will be asked for instead of auto-approved.');
    const asking = (p: AutoApprovePolicy): AutoApprovePolicy => ({ ...p, safeCommands: false, allCommands: false });
    return { host, policy: typeof policy === 'function' ? () => asking(policy()) : asking(policy), dispose: async () => {} };
  }
  const problems = hostAllowListProblems(request.allowedHosts);
  for (const problem of problems) host.notify('warning', `Sandbox allowed hosts: ${problem}; it is left out.`);
  const allowedHosts = request.allowedHosts.filter((entry) => hostAllowListProblems([entry]).length === 0);
  const proxy = !request.network && allowedHosts.length > 0 ? await NetworkProxy.start(allowedHosts) : undefined;
  const processes = new ChildProcessRunner({ sandbox: { bwrap, folders, network: request.network, ignore, ...(proxy ? { proxy } : {}) } });
  return { host: { ...host, processes }, policy, dispose: async () => proxy?.close() };
}
