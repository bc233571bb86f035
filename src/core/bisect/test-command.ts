// Running the user's test command in a scratch copy: confined by the command sandbox when there
// is one, within a time limit, its output kept bounded, its whole process tree ended afterwards.
import { ChildProcessRunner } from '../process/child-process-runner.js';
import { hostAllowListProblems } from '../process/host-allow-list.js';
import { NetworkProxy } from '../process/network-proxy.js';
import { OutputBuffer } from '../process/output-buffer.js';
import { findSandbox } from '../process/task-sandbox.js';
import { NOTHING_IGNORED } from '../workspace/ignore-policy.js';

/** How the test runs: `sandboxed` (bubblewrap, only the scratch copy writable), `off` (asked), `unavailable` (no bubblewrap here). */
export type TestConfinement = 'sandboxed' | 'off' | 'unavailable';

/** The user's sandbox choices for the test runs. */
export interface TestSandboxRequest {
  /** False: run the test unconfined (`--no-sandbox`). */
  readonly enabled: boolean;
  /** The whole network (otherwise none, or only `allowedHosts`). */
  readonly network: boolean;
  readonly allowedHosts: readonly string[];
}

/** How one run ended. */
export interface TestRunResult {
  /** `pass`: exit code 0; `fail`: any other end, a timeout included; `skip`: exit code 125 (the state cannot be tested). */
  readonly verdict: 'pass' | 'fail' | 'skip';
  readonly exitCode: number | null;
  readonly signal?: string;
  /** The time limit ended it (its process tree was killed); counted as a failure. */
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** The output (stdout and stderr together), its head and tail within OUTPUT_LIMITS. */
  readonly output: string;
}

/** Kept of each run's output: the first and last lines, about 8 KB. */
const OUTPUT_LIMITS = { headLines: 20, tailLines: 80, maxChars: 8_000 };
/** Each test run's limit unless the user gives another: 5 minutes. */
export const DEFAULT_TEST_TIMEOUT_MS = 300_000;
/** The exit code that says "this state cannot be tested", as for `git bisect run`. */
export const SKIP_EXIT_CODE = 125;

/** Runs the test command in scratch copies, the same way each time. */
export class TestCommand {
  private constructor(
    readonly command: string,
    private readonly timeoutMs: number,
    readonly confinement: TestConfinement,
    /** Why there is no sandbox, when `confinement` is `unavailable`. */
    readonly unavailableReason: string | undefined,
    private readonly sandbox: { readonly bwrap: string; readonly filter: Buffer; readonly network: boolean } | undefined,
    private readonly proxy: NetworkProxy | undefined,
  ) {}

  /** Looks for the sandbox once; the proxy for allowed hosts starts here and stops in `close`. */
  static async prepare(command: string, timeoutMs: number, request: TestSandboxRequest): Promise<TestCommand> {
    if (!request.enabled) return new TestCommand(command, timeoutMs, 'off', undefined, undefined, undefined);
    const found = await findSandbox();
    if ('reason' in found) return new TestCommand(command, timeoutMs, 'unavailable', found.reason, undefined, undefined);
    const problems = hostAllowListProblems(request.allowedHosts);
    if (problems.length > 0) throw new Error(`allowed hosts: ${problems.join('; ')}`);
    const proxy = !request.network && request.allowedHosts.length > 0 ? NetworkProxy.start(request.allowedHosts) : undefined;
    return new TestCommand(command, timeoutMs, 'sandboxed', undefined, { bwrap: found.bwrap, filter: found.filter, network: request.network }, proxy);
  }

  /**
   * Runs the command in `cwd` with `folders` (the scratch copies) as the only writable places when
   * sandboxed, and `readable` (what the copies link to) bound read-only even under the private /tmp. A run past the time limit, or stopped by `signal`, has its whole process tree
   * killed; a stopped run rejects with the signal's reason.
   */
  async run(
    cwd: string,
    folders: readonly string[],
    readable: readonly string[],
    env: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<TestRunResult> {
    signal?.throwIfAborted();
    const runner = new ChildProcessRunner(
      this.sandbox
        ? {
            sandbox: {
              ...this.sandbox,
              folders,
              readOnly: readable,
              // The copy holds only what checkpoints keep, and they leave out what .smithignore names.
              ignore: NOTHING_IGNORED,
              ...(this.proxy ? { proxy: this.proxy } : {}),
            },
          }
        : {},
    );
    const started = Date.now();
    const output = new OutputBuffer(OUTPUT_LIMITS);
    const child = runner.start(this.command, { cwd, env });
    child.onOutput((chunk) => output.append(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void child.kill();
    }, this.timeoutMs);
    const stop = () => void child.kill();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const exit = await child.exited;
      // What the test left running in the background ends too (unconfined, it would outlive the copy).
      await child.kill();
      signal?.throwIfAborted();
      const passed = !timedOut && exit.exitCode === 0;
      return {
        verdict: passed ? 'pass' : !timedOut && exit.exitCode === SKIP_EXIT_CODE ? 'skip' : 'fail',
        exitCode: exit.exitCode,
        ...(exit.signal ? { signal: exit.signal } : {}),
        timedOut,
        durationMs: Date.now() - started,
        output: output.render(),
      };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
    }
  }

  /** Stops the proxy for allowed hosts, if one was started. */
  close(): void {
    this.proxy?.close();
  }
}
