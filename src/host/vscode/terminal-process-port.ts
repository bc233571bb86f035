import { resolve } from 'node:path';
import { OutputFanout } from '../../core/process/output-fanout.js';
import * as vscode from 'vscode';
import type { KillReport, ProcessPort, ProcessStartOptions, RunningProcess } from '../../core/ports.js';
import { ChildProcessRunner } from '../../core/process/child-process-runner.js';
import { COMMAND_MARKER_VARIABLE, markedEnvironment, newCommandMarker } from '../../core/process/command-marker.js';
import { killMarkedProcesses } from '../../core/process/process-tree.js';
import { commandInDirectory, shellSyntax } from '../../core/process/directory-guard.js';
import { PromptEolMarkFilter } from '../../core/process/prompt-eol-mark.js';
import {
  hasShellIntegrationApi,
  onDidEndShellExecution,
  onDidStartShellExecution,
  shellIntegrationEnabled,
  shellIntegrationOf,
  shellOf,
  waitForShellIntegration,
  type ShellExecution,
  type ShellIntegration,
} from './shell-integration.js';

/** Tuning for TerminalProcessPort; the defaults suit real use, tests may change them. */
interface TerminalProcessPortOptions {
  /** How long a new terminal may take to report shell integration before the fallback runs the command (default 4000 ms). */
  readonly shellIntegrationTimeoutMs?: number;
  /** Always run commands as child processes (no terminal). */
  readonly forceFallback?: boolean;
  /** Runs commands when no terminal with shell integration is available (default ChildProcessRunner). */
  readonly fallback?: ProcessPort;
  /** The shell for Smith's terminals (default: the user's default terminal profile). */
  readonly shellPath?: string;
  readonly terminalName?: string;
  /** Show the terminal when a command starts in it, without taking focus (default true). */
  readonly reveal?: boolean;
  /** Time kill() gives a command to stop after Ctrl+C before its terminal is closed (default 2000 ms). */
  readonly killGraceMs?: number;
}

/** Where a command ended up running. */
export type ProcessBackend = 'terminal' | 'child-process';

type ExitInfo = { readonly exitCode: number | null; readonly signal?: string };

interface PooledTerminal {
  readonly terminal: vscode.Terminal;
  /** Terminals are reused only for the same extra environment. */
  readonly envKey: string;
  /** The task whose commands may reuse it (forTask); undefined: commands started on the port itself. */
  readonly owner: object | undefined;
  busy: boolean;
  /** No command has run in it yet: its shell is still in the folder it was created in. */
  fresh: boolean;
  /**
   * In the SMITH_COMMAND_ID of every process started in this terminal (command-marker.ts). Stopping
   * a command closes its terminal, so the marker reaches what its commands started with setsid or
   * nohup, which closing the terminal does not end.
   */
  readonly marker: string;
}

// After this many terminals in a row never reported shell integration, stop waiting for it.
const MAX_INTEGRATION_FAILURES = 2;
// Output may still be in flight when the end event arrives; wait this long for the stream to close.
const DRAIN_MS = 500;
// Text held back because zsh's end-of-line mark might follow is passed on after this much silence.
const HOLD_RELEASE_MS = 100;

/**
 * Runs commands in VS Code terminals through shell integration, so the user sees them and the
 * engine still gets the output stream and the exit code. Falls back to child processes when the
 * shell does not support integration (sh, cmd), the user turned it off, or the API is missing.
 * An idle terminal is reused whatever folder its shell is in: a reused terminal gets the command
 * behind a `cd` to the intended folder, since the cwd its shell reports may lag behind a `cd` the
 * previous command made. It is reused only by the task that opened it (forTask): another task's
 * command never lands in a shell whose state (variables, functions, history) one task left.
 */
export class TerminalProcessPort implements ProcessPort, vscode.Disposable {
  private readonly pool = new Set<PooledTerminal>();
  private readonly fallback: ProcessPort;
  private readonly subscriptions: vscode.Disposable[] = [];
  private integrationFailures = 0;

  constructor(private readonly options: TerminalProcessPortOptions = {}) {
    this.fallback = options.fallback ?? new ChildProcessRunner();
    this.subscriptions.push(
      vscode.window.onDidCloseTerminal((closed) => {
        for (const entry of this.pool) if (entry.terminal === closed) this.pool.delete(entry);
      }),
    );
  }

  /** Starts the command; where it runs (terminal or fallback) is decided asynchronously, see `backend`. */
  start(command: string, options: ProcessStartOptions): TerminalRunningProcess {
    return this.startFor(undefined, command, options);
  }

  /** A port for one task: its commands reuse only the terminals its own commands opened. */
  forTask(): { start: TerminalProcessPort['start'] } {
    const owner = {};
    return { start: (command, options) => this.startFor(owner, command, options) };
  }

  private startFor(owner: object | undefined, command: string, options: ProcessStartOptions): TerminalRunningProcess {
    const running = new TerminalRunningProcess();
    running.launch(() => this.run(owner, command, options, running));
    return running;
  }

  /** Closes nothing the user may still be reading; only stops listening. */
  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private async run(owner: object | undefined, command: string, options: ProcessStartOptions, running: TerminalRunningProcess): Promise<ExitInfo> {
    const lease = this.terminalsAvailable() ? await this.acquire(owner, options.cwd, options.env, options.marker) : undefined;
    if (!lease) return running.adopt(this.fallback.start(command, options));
    if (running.killRequested) {
      lease.busy = false;
      return { exitCode: null, signal: 'SIGTERM' };
    }
    const knownCwd = lease.integration.cwd;
    const inPlace = lease.fresh && knownCwd !== undefined && resolve(knownCwd.fsPath) === resolve(options.cwd);
    lease.fresh = false;
    const syntax = shellSyntax(shellOf(lease.terminal) ?? this.options.shellPath ?? vscode.env.shell);
    const commandLine = inPlace ? command : commandInDirectory(syntax, options.cwd, command);
    return running.runInTerminal(lease, commandLine, () => this.release(lease), this.options.killGraceMs ?? 2000);
  }

  private terminalsAvailable(): boolean {
    return !this.options.forceFallback && hasShellIntegrationApi() && shellIntegrationEnabled() && this.integrationFailures < MAX_INTEGRATION_FAILURES;
  }

  /** An idle Smith terminal of `owner` with shell integration, or a new one in `cwd`; undefined when integration never came. */
  private async acquire(
    owner: object | undefined,
    cwd: string,
    env: Readonly<Record<string, string>> | undefined,
    wantedMarker: string | undefined,
  ): Promise<(PooledTerminal & { integration: ShellIntegration }) | undefined> {
    const envKey = JSON.stringify(env ?? {});
    for (const entry of this.pool) {
      const integration = shellIntegrationOf(entry.terminal);
      if (entry.busy || entry.owner !== owner || entry.envKey !== envKey || entry.terminal.exitStatus || !integration) continue;
      entry.busy = true;
      return Object.assign(entry, { integration });
    }
    // A new terminal carries the first command's marker, which that command logged before it started.
    const marker = wantedMarker ?? newCommandMarker();
    const terminal = vscode.window.createTerminal({
      name: this.options.terminalName ?? 'Smith',
      cwd,
      // Pagers would wait for a key nobody presses.
      env: { PAGER: 'cat', GIT_PAGER: 'cat', ...env, [COMMAND_MARKER_VARIABLE]: markedEnvironment(process.env, marker)[COMMAND_MARKER_VARIABLE] ?? marker },
      ...(this.options.shellPath ? { shellPath: this.options.shellPath } : {}),
      iconPath: new vscode.ThemeIcon('terminal'),
    });
    const entry: PooledTerminal = { terminal, envKey, owner, busy: true, fresh: true, marker };
    this.pool.add(entry);
    if (this.options.reveal ?? true) terminal.show(true);
    const integration = await waitForShellIntegration(terminal, this.options.shellIntegrationTimeoutMs ?? 4000);
    if (!integration) {
      this.integrationFailures++;
      this.pool.delete(entry);
      terminal.dispose();
      return undefined;
    }
    this.integrationFailures = 0;
    return Object.assign(entry, { integration });
  }

  private release(entry: PooledTerminal): void {
    entry.busy = false;
  }
}

/** A command started by TerminalProcessPort, in a terminal or (fallback) as a child process. */
export class TerminalRunningProcess implements RunningProcess {
  readonly exited: Promise<ExitInfo>;
  /** Settles once it is known where the command runs. */
  readonly backend: Promise<ProcessBackend>;
  private settleBackend!: (backend: ProcessBackend) => void;
  private settleExit!: (exit: ExitInfo) => void;
  private failExit!: (error: Error) => void;
  private readonly output = new OutputFanout();
  private child: RunningProcess | undefined;
  private stop: (() => Promise<void>) | undefined;
  private killing: Promise<void> | undefined;
  /** True once kill() was called, even before the command started. */
  killRequested = false;

  constructor() {
    this.backend = new Promise((resolve) => (this.settleBackend = resolve));
    this.exited = new Promise((resolve, reject) => {
      this.settleExit = resolve;
      this.failExit = reject;
    });
    // Callers await `exited`; this only keeps a start failure nobody awaited from crashing the host.
    this.exited.catch(() => {});
  }

  onOutput(listener: (chunk: string) => void): void {
    this.output.subscribe(listener);
  }

  private terminalMarker: string | undefined;
  private terminalKillReport: KillReport | undefined;

  /** The marker of the terminal the command runs in, or the fallback's own (known once the command started). */
  get marker(): string | undefined {
    return this.child ? this.child.marker : this.terminalMarker;
  }

  /** What stopping the command verified afterwards. */
  get killReport(): KillReport | undefined {
    return this.child ? this.child.killReport : this.terminalKillReport;
  }

  /** A terminal merges stdout and stderr; the fallback says for itself. */
  get streams(): RunningProcess['streams'] {
    return this.child ? this.child.streams : 'merged';
  }

  kill(): Promise<void> {
    this.killRequested = true;
    this.killing ??= (this.stop?.() ?? Promise.resolve()).then(() =>
      this.exited.then(
        () => undefined,
        () => undefined,
      ),
    );
    return this.killing;
  }

  /** Runs `body` and settles `exited` with its result. */
  launch(body: () => Promise<ExitInfo>): void {
    body().then(
      (exit) => this.settleExit(exit),
      (error: unknown) => this.failExit(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** Hands the command to another port's process (the fallback) and relays it. */
  adopt(child: RunningProcess): Promise<ExitInfo> {
    this.settleBackend('child-process');
    this.child = child;
    child.onOutput((chunk) => this.emit(chunk));
    this.stop = () => child.kill();
    if (this.killRequested) void child.kill();
    return child.exited;
  }

  /** Runs the command through the terminal's shell integration and waits for its end. */
  async runInTerminal(lease: PooledTerminal & { integration: ShellIntegration }, command: string, release: () => void, killGraceMs: number): Promise<ExitInfo> {
    this.settleBackend('terminal');
    const { terminal } = lease;
    this.terminalMarker = lease.marker;
    let finish!: (exit: ExitInfo) => void;
    const ended = new Promise<ExitInfo>((resolve) => (finish = resolve));
    // zsh prints its end-of-line mark into the stream before the command counts as finished.
    const filter = new PromptEolMarkFilter();
    let releaseTimer: NodeJS.Timeout | undefined;
    const pass = (data: string): void => {
      clearTimeout(releaseTimer);
      this.emit(filter.push(data));
      if (filter.holding) releaseTimer = setTimeout(() => this.emit(filter.release()), HOLD_RELEASE_MS);
    };
    let execution: ShellExecution | undefined;
    let reading: Promise<unknown> = Promise.resolve();
    const read = (stream: AsyncIterable<string>): void => {
      const previous = reading;
      reading = Promise.all([
        previous,
        (async () => {
          for await (const data of stream) pass(data);
        })().catch(() => undefined),
      ]);
    };
    const subscriptions = [
      // VS Code ties the execution executeCommand returned to what the shell reports by comparing
      // command lines. A shell that reports an unverified line (fish) is matched against the
      // terminal buffer, where a long command wraps: the match fails and VS Code starts another
      // execution for our command. That one is read too, recognised by its letters and digits.
      onDidStartShellExecution((start) => {
        if (start.terminal === terminal && start.execution !== execution && isSameCommand(start.execution, command)) read(start.execution.read());
      }),
      // A shell may also report executions that are not ours (a prompt VS Code took for typed text
      // and cleared with Ctrl+C ends as one): an end counts when it is ours or names our command.
      onDidEndShellExecution((end) => {
        if (end.terminal !== terminal) return;
        if (end.execution === execution || isSameCommand(end.execution, command)) finish({ exitCode: end.exitCode ?? null });
      }),
      vscode.window.onDidCloseTerminal((closed) => {
        if (closed === terminal) finish({ exitCode: null, signal: 'SIGHUP' });
      }),
    ];
    this.stop = async () => {
      // Ctrl+C as a user would; then close the terminal so background children get SIGHUP too.
      terminal.sendText('\x03', false);
      await Promise.race([ended, delay(killGraceMs)]);
      terminal.dispose();
      // Closing the terminal hangs up its shell's session only; processes that left it remain.
      this.terminalKillReport = await killMarkedProcesses(lease.marker, { graceMs: killGraceMs });
      finish({ exitCode: null, signal: 'SIGHUP' });
    };
    try {
      execution = lease.integration.executeCommand(command);
      // read() only yields data written after its first call, so it is called at once.
      read(execution.read());
      const exit = await ended;
      await Promise.race([reading, delay(DRAIN_MS)]);
      return exit;
    } finally {
      clearTimeout(releaseTimer);
      this.emit(filter.end());
      for (const subscription of subscriptions) subscription.dispose();
      if (!this.killRequested) release();
    }
  }

  private emit(text: string): void {
    if (text === '') return;
    this.output.emit(text);
  }
}

/** True when the execution's reported command line has the letters and digits of `command` (or none at all). */
function isSameCommand(execution: ShellExecution, command: string): boolean {
  const key = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, '');
  const reported = key(execution.commandLine?.value ?? '');
  return reported === '' || reported.includes(key(command));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
