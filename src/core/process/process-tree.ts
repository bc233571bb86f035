import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** How kill() ends a tree: politely first, then by force. */
export interface KillTreeOptions {
  /** Time between SIGTERM and SIGKILL (POSIX). */
  readonly graceMs: number;
  readonly platform?: NodeJS.Platform;
}

const POLL_MS = 50;

/**
 * Ends a process and everything it started: on POSIX the process group led by `pid` (the process
 * must have been spawned with `detached: true`), SIGTERM then SIGKILL after the grace period; on
 * Windows `taskkill /T /F`. Resolves once the group is gone or SIGKILL was sent.
 */
export async function killProcessTree(pid: number, options: KillTreeOptions): Promise<void> {
  if ((options.platform ?? process.platform) === 'win32') {
    await runTaskkill(pid);
    return;
  }
  if (!signalGroup(pid, 'SIGTERM')) return;
  const deadline = Date.now() + options.graceMs;
  while (Date.now() < deadline) {
    await delay(POLL_MS);
    if (!isProcessGroupAlive(pid)) return;
  }
  signalGroup(pid, 'SIGKILL');
}

/** True while any live (non-zombie) process belongs to the POSIX process group `pgid`. */
export function isProcessGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // Where PID 1 does not reap orphans (some containers), killed processes linger as zombies that
  // still answer signal 0; /proc tells them apart so we do not wait out the grace period for nothing.
  return process.platform === 'linux' ? hasLiveMember(pgid) : true;
}

function hasLiveMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp ..."; comm may itself contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    // ESRCH: already gone. EPERM: nothing left that we may signal.
    return false;
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
