import { spawn } from 'node:child_process';
import type { KillReport } from '../ports.js';
import { canInspectProcesses, findProcesses, isProcessAlive } from './command-marker.js';

/** How a tree is ended: politely first, then by force. */
interface KillTreeOptions {
  /** Time between SIGTERM and SIGKILL (POSIX). */
  readonly graceMs: number;
  /** The command's marker (command-marker.ts): finds processes that left the group (setsid, nohup, double fork). */
  readonly marker?: string;
  /** How long to wait for processes to disappear after SIGKILL before calling them survivors (default 2000 ms). */
  readonly verifyMs?: number;
  readonly platform?: NodeJS.Platform;
}

const POLL_MS = 50;
const DEFAULT_VERIFY_MS = 2000;

/**
 * Ends a process and everything it started: on POSIX the process group led by `pid` (spawned with
 * `detached: true`) plus every process carrying `marker`, SIGTERM then SIGKILL after the grace
 * period; on Windows `taskkill /T /F`. Processes that appear while it works are caught too. Resolves
 * with the processes still alive afterwards, as checked on /proc (Linux); elsewhere unchecked.
 */
export async function killProcessTree(pid: number, options: KillTreeOptions): Promise<KillReport> {
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') {
    await runTaskkill(pid);
    return { checked: false, survivors: [] };
  }
  return killAll({ pgrp: pid, ...(options.marker ? { marker: options.marker } : {}) }, options, platform);
}

/**
 * Ends every process carrying `marker` (Linux), e.g. what a crashed run left behind, or the
 * processes of a command run by a host that cannot give a process group (a terminal).
 */
export async function killMarkedProcesses(marker: string, options: Omit<KillTreeOptions, 'marker'>): Promise<KillReport> {
  return killAll({ marker }, options, options.platform ?? process.platform);
}

type Target = { readonly pgrp?: number; readonly marker?: string };

async function killAll(target: Target, options: KillTreeOptions, platform: NodeJS.Platform): Promise<KillReport> {
  const inspect = canInspectProcesses(platform);
  // Without /proc the group is all we can reach or watch.
  const live = (): number[] =>
    inspect ? findProcesses(target).map((entry) => entry.pid) : target.pgrp !== undefined && groupAnswers(target.pgrp) ? [target.pgrp] : [];
  // SIGTERM goes once to each process (a process cleaning up is not interrupted again); SIGKILL to whatever is left.
  const termed = new Set<number>();
  let groupTermed = false;
  const signalAll = (signal: NodeJS.Signals, pids: readonly number[]): void => {
    const force = signal === 'SIGKILL';
    if (target.pgrp !== undefined && (force || !groupTermed)) signalGroup(target.pgrp, signal);
    for (const pid of pids) if (force || !termed.has(pid)) signalProcess(pid, signal);
    if (!force) {
      groupTermed = true;
      for (const pid of pids) termed.add(pid);
    }
  };

  let pids = live();
  if (pids.length === 0) return { checked: inspect, survivors: [] };
  signalAll('SIGTERM', pids);
  pids = await waitUntilGone(live, options.graceMs, (fresh) => signalAll('SIGTERM', fresh));
  if (pids.length > 0) {
    signalAll('SIGKILL', pids);
    // A process may fork between two looks: each look kills what it finds.
    pids = await waitUntilGone(live, options.verifyMs ?? DEFAULT_VERIFY_MS, (fresh) => signalAll('SIGKILL', fresh));
  }
  // Processes stuck in the kernel can outlive SIGKILL; report them rather than claim they are gone.
  return { checked: inspect, survivors: inspect ? pids.filter(isProcessAlive) : [] };
}

/** Polls `live` until it is empty or `ms` passed, calling `onSeen` with each look's processes; returns the last look. */
async function waitUntilGone(live: () => number[], ms: number, onSeen: (pids: number[]) => void): Promise<number[]> {
  const deadline = Date.now() + ms;
  let pids = live();
  while (pids.length > 0 && Date.now() < deadline) {
    await delay(POLL_MS);
    pids = live();
    if (pids.length > 0) onSeen(pids);
  }
  return pids;
}

function groupAnswers(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: already gone. EPERM: nothing left that we may signal.
  }
}

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone in the meantime.
  }
}

function runTaskkill(pid: number): Promise<void> {
  return new Promise((resolve) => {
    const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    killer.once('error', () => resolve());
    killer.once('exit', () => resolve());
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
