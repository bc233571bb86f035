import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The environment variable that marks every process a command starts. Children inherit it through
 * setsid, nohup, double forks and re-parenting, which a process group or the ppid chain do not
 * survive. Nested Smith runs append their own marker (`outer:inner`), so an outer command still
 * reaches the processes of an inner one.
 */
export const COMMAND_MARKER_VARIABLE = 'SMITH_COMMAND_ID';

/** A new marker, unique to one command of one Smith process. */
export function newCommandMarker(): string {
  return `${process.pid.toString(36)}-${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
}

/** The environment `env` with `marker` added to the command-marker variable. */
export function markedEnvironment(env: NodeJS.ProcessEnv, marker: string): NodeJS.ProcessEnv {
  const outer = env[COMMAND_MARKER_VARIABLE];
  return { ...env, [COMMAND_MARKER_VARIABLE]: outer ? `${outer}:${marker}` : marker };
}

/** A live process seen in /proc. */
interface ProcessEntry {
  readonly pid: number;
  /** Its process group. */
  readonly pgrp: number;
}

/** True where processes can be found by marker and by group (Linux /proc). */
export function canInspectProcesses(platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux') return false;
  try {
    readdirSync('/proc');
    return true;
  } catch {
    return false;
  }
}

/**
 * The live processes (zombies excluded, this process excluded) that carry `marker` in their
 * environment or belong to process group `pgrp`. Empty where /proc cannot be read.
 */
export function findProcesses(match: { readonly marker?: string; readonly pgrp?: number }): ProcessEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: ProcessEntry[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    const stat = readStat(pid);
    if (!stat || stat.state === 'Z' || stat.state === 'X') continue;
    if ((match.pgrp !== undefined && stat.pgrp === match.pgrp) || (match.marker !== undefined && carriesMarker(pid, match.marker))) {
      found.push({ pid, pgrp: stat.pgrp });
    }
  }
  return found;
}

/** The live processes that carry `marker`; empty where /proc cannot be read. */
export function findMarkedProcesses(marker: string): number[] {
  return findProcesses({ marker }).map((entry) => entry.pid);
}

/** True while `pid` is a live process (a zombie counts as dead). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

function readStat(pid: number): { state: string; pgrp: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp ..."; comm may itself contain spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
}

function carriesMarker(pid: number, marker: string): boolean {
  let environ: string;
  try {
    // Only our own user's processes are readable; others cannot be ours.
    environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return false;
  }
  const prefix = `${COMMAND_MARKER_VARIABLE}=`;
  for (const entry of environ.split('\0')) {
    if (entry.startsWith(prefix)) return entry.slice(prefix.length).split(':').includes(marker);
  }
  return false;
}
