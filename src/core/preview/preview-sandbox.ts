import { spawn } from 'node:child_process';
import { existsSync, statfsSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { commandEnvironment, shellInvocation, withStderrOnStdout } from '../process/child-process-runner.js';
import { markedEnvironment, newCommandMarker } from '../process/command-marker.js';
import { OutputBuffer } from '../process/output-buffer.js';
import { killProcessTree } from '../process/process-tree.js';

/** The folders a preview's command sees as writable: the copy in place of the workspace folder, and throwaway temp folders. */
export interface PreviewMounts {
  /** The real workspace folder (where the command sees the copy). */
  readonly root: string;
  /** The copy. */
  readonly copy: string;
  /** Throwaway folders for /tmp, /var/tmp and /dev/shm. */
  readonly tmp: string;
  readonly varTmp: string;
  readonly shm: string;
}

/** How the preview's command ended. */
export interface PreviewEnd {
  readonly exitCode: number | null;
  readonly signal?: string;
  readonly timedOut: boolean;
  /** Set when it wrote more than allowed and was stopped. */
  readonly overWritten?: number;
  readonly aborted: boolean;
  readonly output: OutputBuffer;
}

/** How often the disk is looked at while the command runs. */
const DISK_POLL_MS = 200;

/**
 * bubblewrap's arguments for a preview: the whole file system read-only, the copy mounted where
 * the workspace folder is (so absolute paths, `cd ..` and links that lead back into the
 * workspace all reach the copy, and nothing reaches the real files), /tmp, /var/tmp and /dev/shm
 * throwaway folders Smith looks into afterwards, no network, its own PID namespace (every process
 * ends with the command), a session of its own, and the Unix-socket filter.
 */
export function previewSandboxArguments(mounts: PreviewMounts, cwd: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', mounts.tmp, '/tmp', '--bind', mounts.shm, '/dev/shm'];
  if (existsSync('/var/tmp')) args.push('--bind', mounts.varTmp, '/var/tmp');
  // After /tmp, so a workspace under /tmp is the copy too.
  args.push('--bind', mounts.copy, mounts.root);
  args.push('--unshare-net', '--unshare-pid', '--unshare-ipc', '--die-with-parent', '--new-session', '--seccomp', '3', '--chdir', cwd, '--');
  return args;
}

/**
 * Runs the command under bubblewrap with the preview's mounts, killing its whole tree when the
 * time is up, when the signal fires, or when the disk the copy lives on has lost more than
 * `maxWriteBytes` since it started (a command filling the disk).
 */
export function runPreviewCommand(options: {
  readonly bwrap: string;
  readonly filter: Buffer;
  readonly mounts: PreviewMounts;
  readonly command: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly maxWriteBytes: number;
  readonly signal?: AbortSignal;
}): Promise<PreviewEnd> {
  const shell = withStderrOnStdout(shellInvocation(options.command));
  const marker = newCommandMarker();
  const env = markedEnvironment(commandEnvironment({ TMPDIR: '/tmp' }), marker);
  const child = spawn(options.bwrap, [...previewSandboxArguments(options.mounts, options.cwd), shell.file, ...shell.args], {
    cwd: '/',
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const filterPipe = child.stdio[3] as Writable | null;
  filterPipe?.on('error', () => {});
  filterPipe?.end(options.filter);
  const output = new OutputBuffer();
  const decoders = [child.stdout, child.stderr].map((stream) => {
    const decoder = new StringDecoder('utf8');
    stream?.on('data', (data: Buffer) => output.append(decoder.write(data)));
    return decoder;
  });
  let timedOut = false;
  let aborted = false;
  let overWritten: number | undefined;
  let killing: Promise<unknown> | undefined;
  const kill = (): void => {
    if (child.pid !== undefined) killing ??= killProcessTree(child.pid, { graceMs: 500, marker });
  };
  const freeAtStart = freeBytes(options.mounts.copy);
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, options.timeoutMs);
  const disk = setInterval(() => {
    const used = freeAtStart - freeBytes(options.mounts.copy);
    if (used > options.maxWriteBytes) {
      overWritten = used;
      kill();
    }
  }, DISK_POLL_MS);
  const onAbort = (): void => {
    aborted = true;
    kill();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  return new Promise<PreviewEnd>((resolve, reject) => {
    child.on('error', (error) => {
      clearTimeout(timer);
      clearInterval(disk);
      reject(new Error(`Could not start bubblewrap (${options.bwrap}): ${error.message}`));
    });
    // 'close': the pipes are done too. The PID namespace ends with the command, so no process keeps them open.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(disk);
      options.signal?.removeEventListener('abort', onAbort);
      for (const decoder of decoders) output.append(decoder.end());
      // Whatever the kill found, and a last sweep for anything that left the group.
      void Promise.resolve(killing ?? (child.pid !== undefined ? killProcessTree(child.pid, { graceMs: 200, marker }) : undefined)).finally(() =>
        resolve({
          exitCode: code,
          ...(signal ? { signal } : {}),
          timedOut,
          aborted,
          ...(overWritten !== undefined ? { overWritten } : {}),
          output,
        }),
      );
    });
  });
}

function freeBytes(path: string): number {
  try {
    const stats = statfsSync(path);
    return stats.bavail * stats.bsize;
  } catch {
    return 0;
  }
}
