import { newCommandMarker } from '../process/command-marker.js';
import type { CommandSessions } from '../process/command-sessions.js';
import { watchCommand, type CommandStop } from '../process/command-watch.js';
import { formatDuration } from '../process/format-duration.js';
import { DEFAULT_OUTPUT_LIMITS, OutputBuffer, type OutputLimits } from '../process/output-buffer.js';
import type { KillReport, RunningProcess } from '../ports.js';
import { ignoredPathsInCommand } from '../workspace/command-paths.js';
import type { CommandEnd, CommandFacts } from '../../shared/tool-details.js';
import { builtInSpec, type CommandPreviewHandle, mistake, type ToolHandler, type ToolOutcome, type ToolSpec } from '../tool-kit/tool-spec.js';

/** Tuning for execute_command; the defaults are what the model is told about. */
interface ExecuteCommandOptions {
  /** Silence after which a command is left running in the background (default 10 000 ms). */
  readonly quietPeriodMs?: number;
  /** A command must have run this long before it may be left running (default 1.5 quiet periods). */
  readonly minRunningMs?: number;
  /** Limit when the model gives no timeout (default 600 s). */
  readonly defaultTimeoutSeconds?: number;
  /** Cap on the output in the result (default: first 100 + last 300 lines, ~50 KB). */
  readonly outputLimits?: Partial<OutputLimits>;
}

/** Silence that makes a command count as a server or watcher. */
const DEFAULT_QUIET_PERIOD_MS = 10_000;
/** A command that neither exits nor goes quiet is killed after this long, unless the model set its own timeout. */
const DEFAULT_COMMAND_TIMEOUT_SECONDS = 600;

/** execute_command: runs a shell command in the workspace; long-running ones continue in `sessions`. */
export function createExecuteCommandTool(sessions: CommandSessions, options: ExecuteCommandOptions = {}): ToolHandler {
  const quietMs = options.quietPeriodMs ?? DEFAULT_QUIET_PERIOD_MS;
  const minRunningMs = options.minRunningMs ?? Math.round(quietMs * 1.5);
  const defaultTimeoutSeconds = options.defaultTimeoutSeconds ?? DEFAULT_COMMAND_TIMEOUT_SECONDS;
  const limits: OutputLimits = { ...DEFAULT_OUTPUT_LIMITS, ...options.outputLimits };

  return {
    spec: executeCommandSpec(quietMs, minRunningMs, defaultTimeoutSeconds, limits),
    async execute(params, context): Promise<ToolOutcome> {
      const command = (params.command ?? '').trim();
      if (command === '') return mistake(`Missing value for required parameter 'command' of execute_command.`);
      const requiresApproval = parseRequiresApproval(params.requires_approval);
      if (typeof requiresApproval === 'string') return mistake(requiresApproval);
      const explicitTimeout = parseTimeout(params.timeout);
      if (typeof explicitTimeout === 'string') return mistake(explicitTimeout);

      throwIfAborted(context.signal);
      // A command naming an ignored path always asks, even when commands are auto-approved.
      const ignoredPaths = ignoredPathsInCommand(command, context.cwd, context.ignore);
      const ignoredNote = ignoredPaths.length
        ? `The command names ${ignoredPaths.join(', ')}, which ${context.ignore.source} excludes from Smith's tools.`
        : undefined;
      // A preview the user asks for while deciding; the last one is what Apply writes.
      let previewed: CommandPreviewHandle | undefined;
      const previewCommand = context.previewCommand;
      const preview = previewCommand
        ? async () => {
            previewed?.dispose();
            previewed = undefined;
            previewed = await previewCommand(command);
            return previewed;
          }
        : undefined;
      let answer: Awaited<ReturnType<typeof context.approve>>;
      try {
        answer = await context.approve(
          { summary: 'Run command', command, ...(ignoredNote ? { reason: ignoredNote } : {}), ...(preview ? { preview } : {}) },
          { requiresApproval, ...(ignoredNote ? { touchesIgnoredPath: true } : {}) },
        );
        if (answer.approved && answer.applyPreview) return appliedPreview(command, previewed);
      } finally {
        previewed?.dispose();
      }
      if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };
      throwIfAborted(context.signal);

      const startedAt = Date.now();
      // Logged before any process exists, with the marker its processes will carry: a crash at any
      // moment after this leaves a log from which a resumed task can find and stop what still runs.
      const marker = newCommandMarker();
      context.commandStarted?.({ command, marker });
      let running: RunningProcess;
      try {
        running = context.host.processes.start(command, { cwd: context.cwd, marker });
      } catch (error) {
        return { kind: 'error', error: `Could not run the command: ${(error as Error).message}`, mistake: false };
      }
      const output = new OutputBuffer(limits);
      const timeoutSeconds = explicitTimeout ?? defaultTimeoutSeconds;
      const stop = await watchCommand(running, {
        signal: context.signal,
        timeoutMs: timeoutSeconds * 1000,
        // A timeout from the model means "wait this long for it to finish", so no early hand-off.
        handOff: explicitTimeout === undefined ? { quietMs, minRunningMs } : undefined,
        ...(context.detach ? { detach: context.detach } : {}),
        onOutput: (chunk) => {
          output.append(chunk);
          context.progress(chunk);
        },
      });
      if (stop.kind === 'aborted') throw abortReason(context.signal);
      if (stop.kind === 'failed') return { kind: 'error', error: `Could not run the command: ${stop.error.message}`, mistake: false };
      let text: string;
      let end: CommandEnd;
      if (stop.kind === 'still-running') {
        // Synchronously after the watch stopped, so no output falls between its listener and the session's.
        const session = sessions.track(command, running, Date.now() - startedAt);
        const why = stop.by === 'user' ? 'the user chose to continue while it runs' : `it printed nothing new for ${formatDuration(quietMs)}`;
        text =
          `Command is still running (id ${session.id}): ${why}. ` +
          'It keeps running in the background until the task ends; its new output and its exit code will appear ' +
          `in the environment details of your next messages. Do not start it again.\n${describeOutput(output, 'Output so far', running.streams)}`;
        end = { kind: 'backgrounded', sessionId: session.id, by: stop.by === 'user' ? 'user' : 'quiet' };
      } else {
        ({ text, end } = finishedText(stop, output, timeoutSeconds, running.streams));
      }
      const details: CommandFacts = {
        command,
        end,
        output: output.render(),
        truncated: output.truncated,
        ...(ignoredPaths.length > 0 ? { ignoredPaths } : {}),
      };
      const note = ignoredNote ? `\n\nNote: ${ignoredNote} Do not work with those paths unless the user asks.` : '';
      return { kind: 'result', output: text + note, details: { command: details } };
    },
  };
}

/**
 * The user applied the command's preview instead of running it: its file changes are written
 * (preview-apply.ts), and the model is told so, with the preview's exit code and output.
 */
function appliedPreview(command: string, previewed: CommandPreviewHandle | undefined): ToolOutcome {
  if (!previewed)
    return { kind: 'error', error: 'The user chose to apply a preview of this command, but there was none; nothing was run or changed.', mistake: false };
  let applied: ReturnType<CommandPreviewHandle['apply']>;
  try {
    applied = previewed.apply();
  } catch (error) {
    return {
      kind: 'error',
      error: `The user chose to apply this command's previewed effects, but they could not be applied: ${(error as Error).message} Nothing was run.`,
      mistake: false,
    };
  }
  const result = previewed.result;
  const list = (label: string, paths: readonly string[]) => (paths.length > 0 ? `\n${label}: ${paths.join(', ')}` : '');
  const text =
    `The command was not run here: the user previewed it in a sandbox (a copy of the workspace, no network) and applied its effects to the workspace.` +
    `${list(
      'Created',
      result.created.map((f) => f.path),
    )}${list(
      'Changed',
      result.changed.map((f) => f.path),
    )}${list(
      'Deleted',
      result.deleted.map((f) => f.path),
    )}` +
    `${applied.written.length + applied.deleted.length === 0 ? '\nIt changed no files.' : ''}\nExit code: ${result.exitCode ?? 'none'}\nOutput:\n${result.output === '' ? '(none)' : result.output}`;
  const details: CommandFacts = {
    command,
    end: { kind: 'exited', exitCode: result.exitCode },
    output: result.output,
    truncated: result.outputTruncated,
    appliedPreview: { written: [...applied.written], deleted: [...applied.deleted] },
  };
  return { kind: 'result', output: text, details: { command: details } };
}

/** What the model is told about a command that ran to its end (or its timeout), and how it ended. */
function finishedText(
  stop: Extract<CommandStop, { kind: 'timed-out' | 'exited' }>,
  output: OutputBuffer,
  timeoutSeconds: number,
  streams: RunningProcess['streams'],
): { text: string; end: CommandEnd } {
  if (stop.kind === 'timed-out') {
    return {
      text: `The command did not finish within ${formatDuration(timeoutSeconds * 1000)} and was killed${describeKill(stop.kill)}.\n${describeOutput(output, 'Output before it was killed', streams)}`,
      end: { kind: 'timed_out', timeoutSeconds },
    };
  }
  const status = stop.exitCode !== null ? `Exit code: ${stop.exitCode}` : `Exit code: none (terminated by ${stop.signal ?? 'a signal'})`;
  const end: CommandEnd = { kind: 'exited', exitCode: stop.exitCode, ...(stop.exitCode === null && stop.signal ? { signal: stop.signal } : {}) };
  return { text: `${status}\n${describeOutput(output, 'Output', streams)}`, end };
}

/** Says only what the kill verified: every process gone, which ones survived, or that nothing could be checked. */
function describeKill(report: KillReport | undefined): string {
  if (!report?.checked) return '; whether every process it started has exited could not be checked';
  if (report.survivors.length === 0) return ', together with every process it started';
  const count = report.survivors.length;
  return `, but ${count} process${count === 1 ? '' : 'es'} it started could not be stopped and may still be running (pid ${report.survivors.join(', ')})`;
}

/** The output under its label; the label says when stdout and stderr could not be told apart or kept in order, and when the middle was cut. */
function describeOutput(output: OutputBuffer, label: string, streams: RunningProcess['streams']): string {
  if (output.isEmpty) return `${label}: (none)`;
  const notes = [
    ...(streams === 'merged' ? ['stdout and stderr merged in the order printed'] : []),
    ...(streams === 'separate' ? ['stdout and stderr from separate pipes: their order may be mixed'] : []),
    ...(output.truncated ? ['too long: the middle was cut, see the note where it was'] : []),
  ];
  return `${label}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}:\n${output.render()}`;
}

function parseRequiresApproval(value: string | undefined): boolean | string {
  const text = (value ?? '').trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === '') {
    return `Missing value for required parameter 'requires_approval' of execute_command: say "true" for a risky command or "false" for a safe one.`;
  }
  return `requires_approval must be "true" or "false", got "${value!.trim()}".`;
}

function parseTimeout(value: string | undefined): number | undefined | string {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value.trim());
  if (!Number.isFinite(seconds) || seconds <= 0) return `timeout must be a positive number of seconds, got "${value.trim()}".`;
  return seconds;
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortReason(signal);
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('The command was aborted.');
}

function executeCommandSpec(quietMs: number, minRunningMs: number, timeoutSeconds: number, limits: OutputLimits): ToolSpec {
  return builtInSpec({
    name: 'execute_command',
    description: [
      "Run a command line in the user's shell, in the workspace folder. Use it for builds, tests, linters, git, package managers and other CLI work.",
      "Tailor the command to the user's operating system and shell. Each call starts in the workspace folder: a `cd` does not carry over, so write `cd sub && npm test`.",
      'Input is closed, so interactive prompts fail: use non-interactive flags (`--yes`, `-y`, `CI=1`). Pagers are disabled.',
      `The result is the exit code and the output (stdout and stderr interleaved). Long output keeps the first ${limits.headLines} and last ${limits.tailLines} lines (about ${Math.round(limits.maxChars / 1000)} KB) with a note saying how much was cut; filter with grep/head/tail or write to a file when you need more.`,
      `Long-running commands (dev servers, watchers): once a command has printed nothing new for ${formatDuration(quietMs)} (and has run at least ${formatDuration(minRunningMs)}), you get "Command is still running (id N)" with its output so far; it keeps running until the task ends, and its new output and exit code appear in the environment details of later messages. Do not start it again.`,
      `Without timeout, a command that neither exits nor goes quiet is killed after ${formatDuration(timeoutSeconds * 1000)}. With timeout, the tool waits up to that many seconds for the command to finish (even when it is quiet), then kills it and everything it started.`,
    ].join('\n'),
    params: [
      { name: 'command', required: true, description: 'The command line to run.' },
      {
        name: 'requires_approval',
        required: true,
        description:
          '"true" when the command could do harm or has effects beyond the workspace: installing or removing packages, deleting or overwriting files, changing system settings, network calls with side effects, git push or reset. "false" for safe work: reading, listing, building, testing, linting, starting a dev server.',
      },
      {
        name: 'timeout',
        required: false,
        description:
          'Seconds to wait for the command to finish before killing it. Set it for commands you expect to run long and quietly (a big test suite); leave it out for servers and watchers.',
      },
    ],
    example: '<execute_command>\n<command>npm test</command>\n<requires_approval>false</requires_approval>\n</execute_command>',
  });
}
