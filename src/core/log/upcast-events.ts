import { serializeBlocks } from '../parse/serialize-blocks.js';
import type { AssistantBlock } from '../parse/types.js';
import { parseQuestionOptions } from '../../shared/question-options.js';
import type { ConsoleLevel } from '../../shared/tool-details.js';

/**
 * The version of the event shapes this build writes, stored as `v` on every line. A line without
 * `v` was written before versions existed: version 1. Lines of different versions can share one
 * log (a task started by an older build and resumed by a newer one).
 */
export const EVENT_VERSION = 6;

/** A log line as parsed, before it is brought to the current shape. */
export type StoredLine = { readonly type: string; readonly v?: number } & Readonly<Record<string, unknown>>;

/** The events of the log before the line being read, already in the current shapes. */
export type EarlierEvents = readonly { readonly type: string; readonly callId?: unknown; readonly params?: unknown; readonly input?: unknown }[];

/** Turns a line of one version into the shape of the next; `earlier` holds the log's events before it. */
type Upcast = (line: StoredLine, earlier: EarlierEvents) => StoredLine;

/**
 * Version 1 → 2: `model_response` stored the reply twice, as `text` and as `blocks`, and the text
 * was always `serializeBlocks(blocks)`. Version 2 keeps the blocks (the text is derived when read)
 * and keeps a text only where it differs from what the blocks give.
 */
function upcastV1ToV2(line: StoredLine): StoredLine {
  if (line.type !== 'model_response' || typeof line.text !== 'string' || !Array.isArray(line.blocks)) return line;
  if (line.text !== serializeBlocks(line.blocks as AssistantBlock[])) return line;
  const { text: _derived, ...rest } = line;
  return rest as StoredLine;
}

/**
 * Version 2 → 3: facts the UIs read are typed where they parsed text before. A follow-up question's
 * result gets the answers it offered (`question.options`), read from the call's `options` as the
 * tool read them (after hooks changed the input, if they did); a browser result's console lines
 * become `{ level, text }`, the level read from the line's "type:" prefix as the panel did.
 */
function upcastV2ToV3(line: StoredLine, earlier: EarlierEvents): StoredLine {
  if (line.type !== 'tool_result' && line.type !== 'tool_error') return line;
  const details = record(line.details);
  let upcast = details;
  const browser = record(details?.browser);
  if (browser && Array.isArray(browser.console))
    upcast = { ...upcast, browser: { ...browser, console: browser.console.map((text) => ({ level: oldConsoleLevel(String(text)), text: String(text) })) } };
  if (line.type === 'tool_result' && line.tool === 'ask_followup_question' && typeof line.callId === 'string') {
    const options = parseQuestionOptions(callInput(earlier, line.callId)?.options);
    if (Array.isArray(options) && options.length > 0) {
      // Logs from before question facts were kept: the tool wrapped an answer in <answer>, and said so when no one could answer.
      const question = record(details?.question) ?? { answered: typeof line.output === 'string' && line.output.startsWith('<answer>') };
      upcast = { ...upcast, question: { ...question, options } };
    }
  }
  return upcast === details ? line : { ...line, details: upcast };
}

/**
 * Version 4 → 5: the persona a task runs as is its mode (it was its skill). `task_started` names it
 * in `modeSlug` (was `skill`); `skill_switched { skill }` becomes `mode_slug_switched { modeSlug }`.
 * Plan/Act (`mode`, `mode_switched`) is unchanged.
 */
function upcastV4ToV5(line: StoredLine): StoredLine {
  if (line.type === 'task_started' && 'skill' in line) {
    const { skill, ...rest } = line;
    return { ...rest, modeSlug: skill } as StoredLine;
  }
  if (line.type === 'skill_switched') {
    const { skill, ...rest } = line;
    return { ...rest, type: 'mode_slug_switched', modeSlug: skill } as StoredLine;
  }
  return line;
}

/** The input a call ran with: the hooks' change of it, else the model's parameters. */
function callInput(earlier: EarlierEvents, callId: string): Readonly<Record<string, string>> | undefined {
  for (let i = earlier.length - 1; i >= 0; i--) {
    const event = earlier[i]!;
    if (event.callId !== callId) continue;
    if (event.type === 'hooks_ran' && record(event.input)) return event.input as Record<string, string>;
    if (event.type === 'tool_requested') return record(event.params) as Record<string, string> | undefined;
  }
  return undefined;
}

/** How the panel coloured a console line before levels were logged: by its "type:" prefix. */
function oldConsoleLevel(text: string): ConsoleLevel {
  if (/^(error|uncaught)\b/.test(text)) return 'error';
  if (/^warning\b/.test(text)) return 'warn';
  if (/^info\b/.test(text)) return 'info';
  if (/^debug\b/.test(text)) return 'debug';
  return 'log';
}

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * Version 3 → 4: `skill_loaded` (an Agent Skill loaded, whose allowed-tools limit the calls after
 * it) is new; no earlier shape changed, so a line passes unchanged. The version is raised so that an
 * older build, which would resume the task without the skill's limits, refuses the log instead.
 */
function upcastV3ToV4(line: StoredLine): StoredLine {
  return line;
}

/**
 * Version 5 → 6: `model_response.signedReasoning` may hold Anthropic's redacted thinking
 * (`type: 'redacted_thinking'`) and OpenAI's encrypted reasoning items (`type: 'reasoning_item'`)
 * beside the thinking blocks (no `type`), each with `afterCalls`; older entries are thinking blocks
 * and read as they are. The version is raised so that an older build, which would send those new
 * entries back to Anthropic as thinking blocks, refuses the log instead.
 */
function upcastV5ToV6(line: StoredLine): StoredLine {
  return line;
}

/** Step `i` turns version i + 1 into version i + 2; one function per step, never edited once released. */
const STEPS: readonly Upcast[] = [upcastV1ToV2, upcastV2ToV3, upcastV3ToV4, upcastV4ToV5, upcastV5ToV6];

/**
 * Brings a stored line of any version this build knows to the current shape (without `v`);
 * `earlier`: the events before it in its log (a step may need the call a result belongs to).
 * Throws for a line written by a newer build, which this one cannot read faithfully.
 */
export function upcastLine(line: StoredLine, earlier: EarlierEvents = []): StoredLine {
  const version = line.v ?? 1;
  if (!Number.isInteger(version) || version < 1) throw new Error(`unknown event version ${JSON.stringify(line.v)}`);
  if (version > EVENT_VERSION)
    throw new Error(`event version ${version} was written by a newer Smith (this one reads up to version ${EVENT_VERSION}); update Smith to open this task`);
  const { v: _version, ...shape } = line;
  let current = shape as StoredLine;
  for (let step = version; step < EVENT_VERSION; step++) current = STEPS[step - 1]!(current, earlier);
  return current;
}
