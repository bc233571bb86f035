import type { ProcessPort, RunningProcess } from '../ports.js';
import { formatDuration } from './format-duration.js';
import { OutputBuffer, type OutputLimits } from './output-buffer.js';

/** Per-report cap on a background command's new output: it lands in every request's environment details. */
const SESSION_OUTPUT_LIMITS: OutputLimits = { headLines: 20, tailLines: 60, maxChars: 6000 };

/** A command the task left running after its tool call returned. */
interface CommandSession {
  readonly id: number;
  readonly command: string;
  readonly startedAt: number;
  readonly process: RunningProcess;
}

/** Options for CommandSessions. */
interface CommandSessionsOptions {
  /** Current time in ms (default Date.now); the task may pass its host clock. */
  readonly now?: () => number;
  readonly outputLimits?: Partial<OutputLimits>;
}

interface SessionState extends CommandSession {
  readonly output: OutputBuffer;
  exit?: { readonly exitCode: number | null; readonly signal?: string; readonly at: number };
}

/**
 * The commands of one task that are still running after their tool call returned (dev servers,
 * watchers). Their new output is reported in the environment details of later requests, and
 * killAll() ends them when the task ends or is aborted.
 */
export class CommandSessions {
  private readonly sessions = new Map<number, SessionState>();
  private readonly now: () => number;
  private readonly limits: Partial<OutputLimits>;
  private nextId = 1;

  constructor(options: CommandSessionsOptions = {}) {
    this.now = options.now ?? Date.now;
    this.limits = { ...SESSION_OUTPUT_LIMITS, ...options.outputLimits };
  }

  /** Starts a command in the background and tracks it. */
  start(processes: ProcessPort, command: string, options: { readonly cwd: string; readonly env?: Readonly<Record<string, string>> }): CommandSession {
    return this.track(command, processes.start(command, options));
  }

  /** Adopts a command that has been running for `runningForMs`; only output printed from now on is reported. */
  track(command: string, running: RunningProcess, runningForMs = 0): CommandSession {
    const startedAt = this.now() - runningForMs;
    const session: SessionState = { id: this.nextId++, command, startedAt, process: running, output: new OutputBuffer(this.limits) };
    this.sessions.set(session.id, session);
    running.onOutput((chunk) => session.output.append(chunk));
    running.exited.then(
      (exit) => (session.exit = { ...exit, at: this.now() }),
      () => (session.exit = { exitCode: null, at: this.now() }),
    );
    return session;
  }

  /** The tracked commands, oldest first (including ones that exited but were not reported yet). */
  list(): readonly CommandSession[] {
    return [...this.sessions.values()];
  }

  /**
   * A text block for the next request's environment details: each command with its id, command
   * line, how long it has run and its new output since the last call. A command that exited is
   * reported once more, with its exit code, and then forgotten. Empty when nothing is tracked.
   */
  runningSummary(): string {
    if (this.sessions.size === 0) return '';
    const now = this.now();
    const blocks = [...this.sessions.values()].map((session) => {
      const status = session.exit
        ? `exited with ${describeExit(session.exit)} after ${formatDuration(session.exit.at - session.startedAt)}`
        : `running for ${formatDuration(now - session.startedAt)}`;
      if (session.exit) this.sessions.delete(session.id);
      const output = session.output.take();
      const body = output === '' ? '(no new output)' : `New output since the last report:\n${output}`;
      return `## Command ${session.id} (${status})\n$ ${session.command}\n${body}`;
    });
    return `# Background commands\n${blocks.join('\n\n')}`;
  }

  /** Ends one tracked command and its whole process tree; false when no such id is tracked. */
  async kill(id: number): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    await session.process.kill();
    return true;
  }

  /** Ends every tracked command (task end or abort) and forgets them. */
  async killAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((session) => session.process.kill().catch(() => undefined)));
  }
}

function describeExit(exit: { readonly exitCode: number | null; readonly signal?: string }): string {
  if (exit.exitCode !== null) return `code ${exit.exitCode}`;
  return exit.signal ? `signal ${exit.signal}` : 'an unknown status';
}
