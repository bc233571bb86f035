import { spawn, type ChildProcess } from 'node:child_process';
import { type CommandSandbox, sandboxArguments } from './command-sandbox.js';
import { BRIDGE_CONNECTION } from './sandbox-bridge.js';
import { OutputFanout } from './output-fanout.js';
import { Socket as NetSocket, type Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { KillReport, ProcessPort, ProcessStartOptions, RunningProcess } from '../ports.js';
import { markedEnvironment, newCommandMarker } from './command-marker.js';
import { killProcessTree } from './process-tree.js';

/** Tuning for ChildProcessRunner; the defaults suit real use, tests may shorten them. */
interface ChildProcessRunnerOptions {
  /** Time kill() gives the tree to exit after SIGTERM before SIGKILL (default 2000 ms). */
  readonly killGraceMs?: number;
  /**
   * After the shell exits, how long to wait for its pipes to close (default 250 ms): a background
   * child (`server &`) inherits them and may keep them open forever.
   */
  readonly drainMs?: number;
  /** Runs every command confined by bubblewrap (see command-sandbox.ts). */
  readonly sandbox?: CommandSandbox;
}

/** How a command line is handed to the user's shell. */
interface ShellInvocation {
  readonly file: string;
  readonly args: readonly string[];
  /** Windows: pass the arguments untouched, as Node's own `shell: true` does for cmd.exe. */
  readonly verbatimArguments: boolean;
}

/** Returns the shell and arguments that run `command`: `$SHELL -c` (or /bin/sh) on POSIX, `cmd.exe /d /s /c` on Windows. */
export function shellInvocation(command: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): ShellInvocation {
  if (platform === 'win32') {
    return { file: env.ComSpec || 'cmd.exe', args: ['/d', '/s', '/c', `"${command}"`], verbatimArguments: true };
  }
  return { file: env.SHELL || '/bin/sh', args: ['-c', command], verbatimArguments: false };
}

/**
 * The invocation with the command's stderr on its stdout, so both come through one pipe in the
 * order they were written. On POSIX /bin/sh points stderr at stdout and execs the shell, whatever
 * that shell's own syntax; cmd.exe (Windows) keeps two pipes.
 */
export function withStderrOnStdout(shell: ShellInvocation, platform: NodeJS.Platform = process.platform): ShellInvocation {
  if (platform === 'win32') return shell;
  return { file: '/bin/sh', args: ['-c', 'exec "$@" 2>&1', 'sh', shell.file, ...shell.args], verbatimArguments: false };
}

/** Returns the environment for a command: the user's, with pagers disabled so nothing waits for a key. */
export function commandEnvironment(extra: Readonly<Record<string, string>> = {}, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...base, PAGER: 'cat', GIT_PAGER: 'cat', ...extra };
}

/** Runs commands as child processes of this Node process (the CLI's ProcessPort, and the test double). */
export class ChildProcessRunner implements ProcessPort {
  constructor(private readonly options: ChildProcessRunnerOptions = {}) {}

  start(command: string, options: ProcessStartOptions): RunningProcess {
    const marker = options.marker ?? newCommandMarker();
    return new ChildRunningProcess(command, options.cwd, markedEnvironment(commandEnvironment(options.env), marker), marker, {
      killGraceMs: this.options.killGraceMs ?? 2000,
      drainMs: this.options.drainMs ?? 250,
      ...(this.options.sandbox ? { sandbox: this.options.sandbox } : {}),
    });
  }
}

type ExitInfo = { readonly exitCode: number | null; readonly signal?: string };

class ChildRunningProcess implements RunningProcess {
  readonly exited: Promise<ExitInfo>;
  readonly streams: 'merged' | 'separate';
  private readonly child: ChildProcess;
  private readonly output = new OutputFanout();
  private killing: Promise<void> | undefined;
  private report: KillReport | undefined;

  constructor(
    command: string,
    cwd: string,
    env: NodeJS.ProcessEnv,
    readonly marker: string,
    private readonly settings: { readonly killGraceMs: number; readonly drainMs: number; readonly sandbox?: CommandSandbox },
  ) {
    const shell = shellInvocation(command);
    const merged = withStderrOnStdout(shell);
    const sandbox = settings.sandbox;
    const confined = sandbox ? sandboxArguments(sandbox, cwd) : undefined;
    const spawned = sandbox && confined ? { ...merged, file: sandbox.bwrap, args: [...confined.args, merged.file, ...merged.args] } : merged;
    this.streams = merged === shell ? 'separate' : 'merged';
    // Confined: the bridge's channel (fd 3, when there is a bridge) and the seccomp program's pipe after it.
    const extra: Array<'ipc' | 'pipe'> = confined ? (confined.bridged ? ['ipc', 'pipe'] : ['pipe']) : [];
    this.child = spawn(spawned.file, [...spawned.args], {
      cwd,
      // The bridge in front of a proxied sandbox's command is this Node (in the editor: Electron run as Node).
      env: confined?.bridged ? { ...env, ELECTRON_RUN_AS_NODE: '1' } : env,
      // Its own process group, so kill() can reach grandchildren too.
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe', ...extra],
      windowsHide: true,
      windowsVerbatimArguments: spawned.verbatimArguments,
    });
    if (sandbox && confined) {
      // bubblewrap reads the program to its end, then runs the command under it.
      const filterPipe = this.child.stdio[confined.filterFd] as Writable | null;
      filterPipe?.on('error', () => {});
      filterPipe?.end(sandbox.filter);
      const proxy = sandbox.proxy;
      if (confined.bridged && proxy) {
        this.child.on('message', (message, handle) => {
          if (message === BRIDGE_CONNECTION && handle instanceof NetSocket) proxy.accept(handle);
          else if (handle && 'destroy' in handle && typeof handle.destroy === 'function') handle.destroy();
        });
        // The channel must not keep Smith alive; the command's pipes do that while it runs.
        this.child.channel?.unref();
      }
    }
    this.exited = this.follow(shell.file, cwd);
    // Callers await `exited`; this only keeps a start failure nobody awaited from crashing Node.
    this.exited.catch(() => {});
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  onOutput(listener: (chunk: string) => void): void {
    this.output.subscribe(listener);
  }

  get killReport(): KillReport | undefined {
    return this.report;
  }

  kill(): Promise<void> {
    this.killing ??= this.killTree();
    return this.killing;
  }

  private async killTree(): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined) return;
    const report = await killProcessTree(pid, { graceMs: this.settings.killGraceMs, marker: this.marker });
    // SIGKILL cannot be refused, but an unkillable process (stuck in the kernel) must not hang us.
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.settings.killGraceMs + 1000)));
    await Promise.race([
      this.exited.then(
        () => undefined,
        () => undefined,
      ),
      cap,
    ]);
    clearTimeout(timer);
    this.report = report;
  }

  private emit(text: string): void {
    if (text === '') return;
    this.output.emit(text);
  }

  private follow(shellFile: string, cwd: string): Promise<ExitInfo> {
    return new Promise<ExitInfo>((resolve, reject) => {
      // One decoder per stream: a multi-byte character may be split across two chunks of the same pipe.
      // stderr carries only what /bin/sh itself reports (the shell could not be run) when merged.
      const streams = [this.child.stdout!, this.child.stderr!].map((stream) => ({ stream, decoder: new StringDecoder('utf8') }));
      let openStreams: number = streams.length;
      let exit: ExitInfo | undefined;
      let settled = false;
      let drainTimer: NodeJS.Timeout | undefined;

      const finish = (): void => {
        if (settled || !exit) return;
        settled = true;
        clearTimeout(drainTimer);
        for (const { decoder } of streams) this.emit(decoder.end());
        resolve(exit);
      };
      for (const { stream, decoder } of streams) {
        stream.on('data', (data: Buffer) => this.emit(decoder.write(data)));
        stream.on('close', () => {
          openStreams--;
          if (openStreams === 0) finish();
        });
      }
      this.child.on('exit', (code, signal) => {
        exit = signal ? { exitCode: code, signal } : { exitCode: code };
        if (openStreams === 0) finish();
        else
          drainTimer = setTimeout(() => {
            // Still read what the background child prints, but do not keep Node alive for it.
            for (const { stream } of streams) (stream as Socket).unref?.();
            finish();
          }, this.settings.drainMs);
      });
      this.child.on('error', (error) => {
        if (settled || exit) return;
        settled = true;
        reject(new Error(`Could not start ${shellFile} in ${cwd}: ${error.message}`));
      });
    });
  }
}
