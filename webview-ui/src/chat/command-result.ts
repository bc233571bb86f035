/**
 * The parts of an execute_command result as the card shows them. The tool's output is written for
 * the model (src/core/tools/execute-command.ts): a status line, a label, then the output itself.
 */
export interface CommandResult {
  /** What the command printed, without the labels around it. */
  readonly output: string;
  /** The exit code; absent when the command did not exit by itself. */
  readonly exitCode?: number;
  /** The signal that ended it when it exited without a code. */
  readonly signal?: string;
  /**
   * Why there is no exit code (still running, killed at the timeout), that the output was cut, or
   * that the command named paths .smithignore excludes.
   */
  readonly note?: string;
}

const EXIT_LINE = /^Exit code: (?:(-?\d+)|none \(terminated by (.+)\))$/;
const STILL_RUNNING = /^Command is still running \(id ([^)]+)\)/;
const TIMED_OUT = /^The command did not finish within (.+?) and was killed/;
// The label may carry notes in parentheses: how stdout and stderr were read, that the middle was cut.
const OUTPUT_LABEL = /^(Output|Output so far|Output before it was killed)( \([^)\n]*\))?:(?: \(none\)$|\n)/;

/**
 * Splits a command's tool result into output, exit code and note. Text in another format (an older
 * log, another tool) comes back whole as the output.
 */
export function parseCommandResult(text: string, feedback?: string): CommandResult {
  let body = withoutFeedback(text, feedback);
  const ignored = IGNORED_NOTE.exec(body);
  if (ignored !== null) body = body.slice(0, ignored.index);
  const parsed = parseBody(body);
  if (parsed === undefined) return { output: text };
  return ignored === null ? parsed : { ...parsed, note: joinNotes(ignored[1]!, parsed.note) };
}

/** The tool's note after the output when the command named .smithignore'd paths (the user let it run). */
const IGNORED_NOTE = /\n\nNote: ([^\n]+) Do not work with those paths unless the user asks\.$/;

/** Status line, label, output; undefined when the text is not in that shape. */
function parseBody(body: string): CommandResult | undefined {
  const firstBreak = body.indexOf('\n');
  if (firstBreak < 0) return undefined;
  const status = body.slice(0, firstBreak);
  const label = OUTPUT_LABEL.exec(body.slice(firstBreak + 1));
  if (label === null) return undefined;
  const output = body.slice(firstBreak + 1 + label[0].length);
  const cut = label[2]?.includes('too long') ? 'The output was too long: the middle was cut.' : undefined;

  const exit = EXIT_LINE.exec(status);
  if (exit !== null) {
    const ended = exit[1] !== undefined ? { exitCode: Number(exit[1]) } : { signal: exit[2]! };
    return { output, ...ended, ...(cut !== undefined ? { note: cut } : {}) };
  }
  const running = STILL_RUNNING.exec(status);
  if (running !== null) return { output, note: joinNotes(`Still running in the background (id ${running[1]}).`, cut) };
  const timedOut = TIMED_OUT.exec(status);
  if (timedOut !== null) return { output, note: joinNotes(`Killed after ${timedOut[1]}: it did not finish.`, cut) };
  return undefined;
}

const FEEDBACK_SUFFIX = /\n\nThe user approved with feedback:\n<feedback>\n[\s\S]*\n<\/feedback>$/;

/**
 * The tool appends approval feedback for the model; the card shows the feedback on its own line.
 * Only stripped when the call had feedback, so output that merely looks like it stays.
 */
function withoutFeedback(text: string, feedback: string | undefined): string {
  return feedback === undefined || feedback === '' ? text : text.replace(FEEDBACK_SUFFIX, '');
}

function joinNotes(first: string, second: string | undefined): string {
  return second === undefined ? first : `${first} ${second}`;
}
