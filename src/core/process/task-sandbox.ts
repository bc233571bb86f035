import { execFile } from 'node:child_process';
import type { Host } from '../ports.js';
import { findExecutable } from '../search/find-executable.js';
import type { AutoApprovePolicy } from '../log/approval-policy.js';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import { ChildProcessRunner } from './child-process-runner.js';
import { hostAllowListProblems } from './host-allow-list.js';
import { NetworkProxy } from './network-proxy.js';
import { unixSocketFilter } from './unix-socket-filter.js';

/** The user's sandbox settings (`--sandbox`, `smith.sandbox`): what confined commands may reach. */
export interface SandboxRequest {
  /** The whole network (otherwise none, or only `allowedHosts`). */
  readonly network: boolean;
  /** Hosts commands may reach through Smith's proxy when the network is off (`*.example.com` allowed). */
  readonly allowedHosts: readonly string[];
}

/** A task's commands as the sandbox request makes them: the host and policy to use, and what to stop afterwards. */
interface ConfinedCommands {
  readonly host: Host;
  readonly policy: AutoApprovePolicy | (() => AutoApprovePolicy);
  /** Why commands are not confined although the sandbox was asked for (absent: they are, or it was not asked for). */
  readonly unavailable?: string;
  dispose(): Promise<void>;
}

/** bubblewrap and the seccomp program that confine commands here, or why they cannot. */
export async function findSandbox(): Promise<{ readonly bwrap: string; readonly filter: Buffer } | { readonly reason: string }> {
  const bwrap = await findExecutable('bwrap');
  if (!bwrap)
    return {
      reason:
        'the command sandbox needs bubblewrap (bwrap), which is not installed (Debian and Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)',
    };
  const filter = unixSocketFilter();
  if (!filter) return { reason: `the command sandbox has no Unix-socket filter for this processor (${process.arch}; x64 and arm64 have one)` };
  const failure = await sandboxFailure(bwrap);
  if (failure !== undefined) return { reason: `bubblewrap (${bwrap}) cannot make a sandbox here (${failure}); unprivileged user namespaces may be turned off` };
  return { bwrap, filter };
}

/** Whether a task with the sandbox turned on would have its commands confined (see sandboxInForceCheck). */
type SandboxInForce = (requested: boolean, whenKnown?: () => void) => boolean;

/**
 * Asks findSandbox, the check a task makes, once (on the first call that requests the sandbox) and
 * answers from it: false until it has answered (`whenKnown` runs then), so a view never says
 * "sandboxed" where commands would run unconfined.
 */
export function sandboxInForceCheck(): SandboxInForce {
  let known: { readonly available: boolean } | undefined;
  let asking: Promise<void> | undefined;
  return (requested, whenKnown) => {
    if (!requested) return false;
    if (known) return known.available;
    asking ??= findSandbox().then((found) => {
      known = { available: !('reason' in found) };
    });
    if (whenKnown) void asking.then(whenKnown);
    return false;
  };
}

/** The process's one answer for views (the check runs once per process). */
export const sandboxInForce: SandboxInForce = sandboxInForceCheck();

/** Each bubblewrap's trial run, once per process: installed is not the same as working. */
const trials = new Map<string, Promise<string | undefined>>();

/** Why a trivial sandbox fails with this bubblewrap, or undefined when it works. */
function sandboxFailure(bwrap: string): Promise<string | undefined> {
  let trial = trials.get(bwrap);
  if (!trial) {
    trial = new Promise((resolve) => {
      execFile(
        bwrap,
        ['--ro-bind', '/', '/', '--unshare-pid', '--unshare-net', '--die-with-parent', '--', 'true'],
        { timeout: 15_000 },
        (error, _stdout, stderr) => {
          resolve(error ? stderr.trim().split('\n').pop() || error.message : undefined);
        },
      );
    });
    trials.set(bwrap, trial);
  }
  return trial;
}

/**
 * Confines a task's commands with bubblewrap (see command-sandbox.ts): they run as child processes
 * under `bwrap`, the workspace's folders writable, no network but the allowed hosts (through a proxy) or the
 * whole network when asked. Without bubblewrap nothing is confined: the user is told once, and
 * every command is asked for, since the auto-approvals (policy, allow rules, hooks) were given for
 * confined commands; where no one can be asked, commands are refused.
 */
export async function confineCommands(
  request: SandboxRequest | undefined,
  folders: readonly string[],
  ignore: IgnorePolicy,
  host: Host,
  policy: AutoApprovePolicy | (() => AutoApprovePolicy),
): Promise<ConfinedCommands> {
  if (!request) return { host, policy, dispose: async () => {} };
  const found = await findSandbox();
  if ('reason' in found) {
    host.notify(
      'warning',
      `Commands are not sandboxed: ${found.reason}. Every command will be asked for; nothing approves one automatically (not --yes, the auto-approve settings, an allow rule or a hook).`,
    );
    const unconfinedCommands = `Not sandboxed: ${found.reason}.`;
    const asking = (p: AutoApprovePolicy): AutoApprovePolicy => ({ ...p, safeCommands: false, allCommands: false, unconfinedCommands });
    return { host, policy: typeof policy === 'function' ? () => asking(policy()) : asking(policy), unavailable: found.reason, dispose: async () => {} };
  }
  const problems = hostAllowListProblems(request.allowedHosts);
  for (const problem of problems) host.notify('warning', `Sandbox allowed hosts: ${problem}; it is left out.`);
  const allowedHosts = request.allowedHosts.filter((entry) => hostAllowListProblems([entry]).length === 0);
  const proxy = !request.network && allowedHosts.length > 0 ? NetworkProxy.start(allowedHosts) : undefined;
  const processes = new ChildProcessRunner({
    sandbox: { bwrap: found.bwrap, folders, network: request.network, ignore, filter: found.filter, ...(proxy ? { proxy } : {}) },
  });
  return { host: { ...host, processes }, policy, dispose: async () => proxy?.close() };
}
