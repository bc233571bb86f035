import { repeatedCallNote } from './repeated-calls.js';
import { asParts, imagesNote, joinContent, nativeAssistantContent, nativeCalls, userContent, userImages, type UserPiece } from './message-content.js';
import type { ImagePart, ProviderMessage, TextMessage, ToolProtocol, ToolResultPart } from '../providers/types.js';
import { shortenedOutput, shortenedThrough } from '../context/result-shortening.js';
import { selectContextImages } from '../context/image-budget.js';
import { hiddenSeqs } from '../context/truncation-plan.js';
import type { TaskEvent } from '../log/events.js';
import type { ToolRequested } from '../log/tool-events.js';
import { visibleEvents } from '../log/visible-events.js';
import { isTool } from '../../shared/tool-catalogue.js';

/**
 * The tool results in a user message's text, as the XML protocol writes them there ("[label]
 * Result:" or "Error:" up to the next result or the environment details); native results are
 * their own `tool_result` parts.
 */
export function resultTextsIn(text: string): string[] {
  return [...text.matchAll(/^\[[^\]\n]+\] (?:Result|Error):\n[\s\S]*?(?=\n\n<environment_details>|\n\n\[[^\]\n]+\] (?:Result|Error):|$(?![\s\S]))/gm)].map(
    (m) => m[0],
  );
}

/** Told after an answer the user cut off (Cancel, or a message sent while it streamed). */
const USER_INTERRUPTED_NOTE = '[The user interrupted your previous answer: it was cut off where it ends above, and nothing in it was run.]';

/** Told to the model when it answers without a tool (Cline's reminder, in our words). */
export const NO_TOOL_REMINDER = `[ERROR] You did not use a tool in your previous response. Every response must use exactly one tool.

Format a tool call as XML, for example:
<attempt_completion>
<result>What was done.</result>
</attempt_completion>

If the task is done, use attempt_completion. If you need information from the user, use ask_followup_question. Otherwise continue with the next step using a tool.`;

/** The reminder for native tool calling, where there is no XML format to show. */
export const NATIVE_NO_TOOL_REMINDER = `[ERROR] You did not call a tool in your previous response. Every response must call at least one tool.

If the task is done, call attempt_completion. If you need information from the user, call ask_followup_question. Otherwise continue with the next step by calling a tool.`;

/** The result given to a native tool call the log has no result for (the task stopped before it). */
export const NO_RESULT_NOTE = 'No result: the task was interrupted before this tool call finished, so it may not have run.';

/** The result given to the attempt_completion call that ended the task, when the conversation goes on. */
export const COMPLETION_SHOWN_NOTE = 'The result was shown to the user.';

/** How the projection renders tool calls. */
interface ProjectionOptions {
  /** xml (default): everything is text. native: calls with a vendor id become tool_use/tool_result parts. */
  readonly toolProtocol?: ToolProtocol;
  /**
   * Send the images tool results logged (vision models only). Without it the projection is text:
   * each result's output already describes its images.
   */
  readonly includeImages?: boolean;
}

/** Added to an older result whose images no longer go with the request (the newest images fill the budget). */
export const IMAGES_LEFT_OUT_NOTE = '[The images of this result are no longer attached, to keep the request small; the description above remains.]';

/** Told to the model where older turns were dropped to fit the context window. */
export const TRUNCATION_NOTE =
  '[NOTE] Some earlier conversation history was removed to stay within the context window. The original task is kept above; re-read files rather than relying on memory of earlier turns.';

/** Replaces an older read_file result when the same read later returned the same text. */
export const SUPERSEDED_READ_NOTE = '[This content was omitted: the same file was read again later with identical content; see the later result.]';

/**
 * Derives the provider messages (the context window) from the log.
 * User-side facts that follow each other are merged into one user message. With native tool
 * calling, a response's calls become tool_use parts and the next user message starts with one
 * tool_result per call, in the same order; a call the log has no result for gets a note, because
 * vendors refuse a call without a result. Calls logged under the XML protocol stay text, so a
 * task may switch protocols. With `includeImages`, a result's images ride in its tool_result
 * (native) or as image parts right after its text (XML); a user message without images stays a string.
 */
export function apiProjection(events: readonly TaskEvent[]): TextMessage[];
export function apiProjection(events: readonly TaskEvent[], options: ProjectionOptions): ProviderMessage[];
export function apiProjection(logged: readonly TaskEvent[], options: ProjectionOptions = {}): ProviderMessage[] {
  // A rewound part of the conversation stays in the log but no longer reaches the model.
  const events = visibleEvents(logged);
  const native = options.toolProtocol === 'native';
  const messages: ProviderMessage[] = [];
  let pendingUser: UserPiece[] = [];
  let pendingResults: ToolResultPart[] = [];
  // Native calls of the latest assistant message still waiting for their result: id → tool name.
  let openCalls = new Map<string, string>();
  let callOrder: string[] = [];
  const requested = new Map<string, ToolRequested>();
  const answered = new Set<string>();
  // Feedback the user gave with an approval, added to that call's result or error.
  const approvalFeedback = new Map<string, string>();

  const flushUser = () => {
    for (const [id, name] of openCalls) pendingResults.push({ type: 'tool_result', toolUseId: id, name, content: NO_RESULT_NOTE, isError: true });
    openCalls = new Map();
    // Results in the order of their calls, as the vendors expect; outcomes may be logged in another order.
    pendingResults.sort((a, b) => callOrder.indexOf(a.toolUseId) - callOrder.indexOf(b.toolUseId));
    if (pendingUser.length === 0 && pendingResults.length === 0) return;
    const content = userContent(pendingUser);
    const last = messages.at(-1);
    if (pendingResults.length > 0) {
      // Results always follow their assistant message, so there is no user message to join here.
      messages.push({ role: 'user', content: [...pendingResults, ...asParts(content)] });
    } else if (last?.role === 'user') {
      // A request that died before its response leaves a user message; the next one joins it.
      messages[messages.length - 1] = { role: 'user', content: joinContent(last.content, content) };
    } else {
      messages.push({ role: 'user', content });
    }
    pendingUser = [];
    pendingResults = [];
  };

  /** Takes the open native call a logged outcome answers, if there is one. */
  const openCallOf = (callId: string): { id: string; name: string } | undefined => {
    const id = requested.get(callId)?.toolUseId;
    const name = id === undefined ? undefined : openCalls.get(id);
    if (id === undefined || name === undefined) return undefined;
    openCalls.delete(id);
    return { id, name };
  };
  const pushResult = (callId: string, content: string, text: string, isError = false, images: readonly ImagePart[] = []) => {
    const call = openCallOf(callId);
    if (call)
      pendingResults.push({
        type: 'tool_result',
        toolUseId: call.id,
        name: call.name,
        content,
        ...(isError ? { isError } : {}),
        ...(images.length > 0 ? { images } : {}),
      });
    else pendingUser.push(text, ...images);
  };

  let taskText = '';
  const hidden = hiddenSeqs(events);
  const superseded = supersededReads(events);
  const shortened = shortenedThrough(events);
  const withImages = options.includeImages ? selectContextImages(events, hidden) : undefined;
  let notedTruncation = false;
  for (const event of events) {
    if (hidden.has(event.seq)) {
      if (!notedTruncation) pendingUser.push(TRUNCATION_NOTE);
      notedTruncation = true;
      continue;
    }
    switch (event.type) {
      case 'task_started':
        taskText = `<task>\n${event.task}\n</task>${event.context ? `\n\n${event.context}` : ''}${imagesNote(event.images, options.includeImages)}`;
        pendingUser.push(taskText, ...userImages(event.images, options.includeImages));
        break;
      case 'history_condensed':
        // The summary replaces everything before it but the task itself; the log keeps it all.
        messages.length = 0;
        openCalls = new Map();
        pendingResults = [];
        pendingUser = [taskText, `<condensed_history>\nThe earlier conversation was condensed into this summary:\n${event.summary}\n</condensed_history>`];
        break;
      case 'mode_switched':
        pendingUser.push(`[The user switched to ${event.mode === 'plan' ? 'PLAN' : 'ACT'} mode.]`);
        break;
      case 'mode_slug_switched':
        pendingUser.push(`[The user switched to the "${event.modeSlug}" mode.]`);
        break;
      case 'user_message':
        pendingUser.push(
          `<user_message>\n${event.text}\n</user_message>${event.context ? `\n\n${event.context}` : ''}${imagesNote(event.images, options.includeImages)}`,
          ...userImages(event.images, options.includeImages),
        );
        break;
      case 'request_started':
        if (event.environmentDetails) pendingUser.push(`<environment_details>\n${event.environmentDetails}\n</environment_details>`);
        flushUser();
        break;
      case 'model_response': {
        flushUser();
        const calls = native ? nativeCalls(event) : [];
        if (calls.length === 0) {
          messages.push({ role: 'assistant', content: event.text || '(empty response)' });
          break;
        }
        messages.push({ role: 'assistant', content: nativeAssistantContent(event, calls) });
        openCalls = new Map(calls.map((call) => [call.id, call.name]));
        callOrder = calls.map((call) => call.id);
        break;
      }
      case 'tool_requested':
        requested.set(event.callId, event);
        break;
      case 'approval_answered':
        if (event.approved && event.feedback) approvalFeedback.set(event.callId, event.feedback);
        if (!event.approved) {
          answered.add(event.callId);
          const label = toolLabel(requested.get(event.callId));
          const denial = event.feedback
            ? `The user denied this operation and said:\n<feedback>\n${event.feedback}\n</feedback>`
            : 'The user denied this operation.';
          pushResult(event.callId, denial, `${label} ${denial}`);
        }
        break;
      case 'tool_result': {
        answered.add(event.callId);
        const leftOut = withImages?.leftOut.has(event.seq) ? `\n\n${IMAGES_LEFT_OUT_NOTE}` : '';
        const seen = superseded.has(event.seq)
          ? SUPERSEDED_READ_NOTE
          : event.seq <= shortened.throughSeq
            ? shortenedOutput(event.output, shortened.maxTokens)
            : event.output;
        const output = withApprovalFeedback(seen, approvalFeedback.get(event.callId)) + leftOut;
        const images = withImages?.sent.has(event.seq) ? (event.images ?? []).map((image) => ({ type: 'image' as const, ...image })) : [];
        pushResult(event.callId, output, `${toolLabel(requested.get(event.callId))} Result:\n${output}`, false, images);
        break;
      }
      case 'tool_error': {
        answered.add(event.callId);
        const error = withApprovalFeedback(event.error, approvalFeedback.get(event.callId));
        pushResult(event.callId, error, `${toolLabel(requested.get(event.callId), event.tool)} Error:\n${error}`, true);
        break;
      }
      case 'no_tool_used':
        pendingUser.push(native ? NATIVE_NO_TOOL_REMINDER : NO_TOOL_REMINDER);
        break;
      case 'loop_detected':
        if (event.action === 'told') pendingUser.push(repeatedCallNote(event.tool, event.count, event.sameFailure));
        break;
      case 'task_resumed':
        pendingUser.push(resumptionNote(requested, answered));
        break;
      case 'task_completed':
        // attempt_completion logs no result of its own; if the conversation goes on, its call needs one.
        for (const [id, name] of openCalls) pendingResults.push({ type: 'tool_result', toolUseId: id, name, content: COMPLETION_SHOWN_NOTE });
        openCalls = new Map();
        break;
      case 'hooks_ran':
        if (event.context) pendingUser.push(`<hook_context>\n${event.context}\n</hook_context>`);
        break;
      case 'response_interrupted':
        // What the model had said when the user stopped it is its answer, cut off; a retried one is not.
        if (!event.byUser) break;
        flushUser();
        messages.push({ role: 'assistant', content: event.partialText.trim() || '(no answer yet)' });
        pendingUser.push(USER_INTERRUPTED_NOTE);
        break;
      case 'tool_results_shortened':
      case 'task_aborted':
      case 'error':
      case 'new_task_requested':
      case 'history_truncated':
      case 'request_retried':
        break;
    }
  }
  flushUser();
  return messages;
}

/** How feedback given with an approval reaches the model: after the call's result. */
function approvalFeedbackNote(feedback: string): string {
  return `\n\nThe user approved with feedback:\n<feedback>\n${feedback}\n</feedback>`;
}

/**
 * The text with the approval's feedback after it. Logs written before the feedback was projected
 * from approval_answered already carry it in the tool's output; it is not added twice.
 */
function withApprovalFeedback(text: string, feedback: string | undefined): string {
  if (!feedback) return text;
  const note = approvalFeedbackNote(feedback);
  return text.includes(note) ? text : text + note;
}

function toolLabel(call: ToolRequested | undefined, fallbackName = 'tool'): string {
  if (!call) return `[${fallbackName}]`;
  const mcpTarget = call.params.server_name && (call.params.tool_name ?? call.params.uri);
  const target = call.params.path ?? call.params.command ?? (mcpTarget ? `${call.params.server_name}/${mcpTarget}` : undefined);
  return target ? `[${call.tool} for '${target}']` : `[${call.tool}]`;
}

function resumptionNote(requested: ReadonlyMap<string, ToolRequested>, answered: ReadonlySet<string>): string {
  const unfinished = [...requested.values()].filter((call) => !answered.has(call.callId));
  const toolNote = unfinished.length
    ? ` The last tool call (${unfinished.map((c) => c.tool).join(', ')}) was interrupted and may not have run; check its effect before relying on it.`
    : '';
  return `[TASK RESUMPTION] This task was interrupted and has now been resumed. The workspace may have changed since.${toolNote} Reassess where the task stands (re-read files you are about to edit) and continue.`;
}

/** Older read_file results that a later identical read of the same file and range makes redundant. */
function supersededReads(events: readonly TaskEvent[]): Set<number> {
  const calls = new Map<string, ToolRequested>();
  const lastByKey = new Map<string, number>();
  const superseded = new Set<number>();
  for (const event of events) {
    if (event.type === 'tool_requested' && isTool(event.tool, 'read_file')) calls.set(event.callId, event);
    if (event.type !== 'tool_result') continue;
    const call = calls.get(event.callId);
    if (!call) continue;
    const key = JSON.stringify([call.params.path, call.params.start_line ?? '', call.params.end_line ?? '', event.output]);
    const earlier = lastByKey.get(key);
    if (earlier !== undefined) superseded.add(earlier);
    lastByKey.set(key, event.seq);
  }
  return superseded;
}
