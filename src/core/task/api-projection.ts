import type { ProviderMessage } from '../providers/types.js';
import { hiddenSeqs } from '../context/truncation-plan.js';
import type { TaskEvent, ToolRequested } from './events.js';

/** Told to the model when it answers without a tool (Cline's reminder, in our words). */
export const NO_TOOL_REMINDER = `[ERROR] You did not use a tool in your previous response. Every response must use exactly one tool.

Format a tool call as XML, for example:
<attempt_completion>
<result>What was done.</result>
</attempt_completion>

If the task is done, use attempt_completion. If you need information from the user, use ask_followup_question. Otherwise continue with the next step using a tool.`;

/** Told to the model where older turns were dropped to fit the context window. */
export const TRUNCATION_NOTE =
  '[NOTE] Some earlier conversation history was removed to stay within the context window. The original task is kept above; re-read files rather than relying on memory of earlier turns.';

/** Replaces an older read_file result when the same read later returned the same text. */
export const SUPERSEDED_READ_NOTE = '[This content was omitted: the same file was read again later with identical content; see the later result.]';

/**
 * Derives the provider messages (the context window) from the log (DESIGN §2).
 * User-side facts that follow each other are merged into one user message.
 */
export function apiProjection(events: readonly TaskEvent[]): ProviderMessage[] {
  const messages: ProviderMessage[] = [];
  let pendingUser: string[] = [];
  const requested = new Map<string, ToolRequested>();
  const answered = new Set<string>();

  const flushUser = () => {
    if (pendingUser.length === 0) return;
    const content = pendingUser.join('\n\n');
    const last = messages.at(-1);
    // A request that died before its response leaves a user message; the next one joins it.
    if (last?.role === 'user') messages[messages.length - 1] = { role: 'user', content: `${last.content}\n\n${content}` };
    else messages.push({ role: 'user', content });
    pendingUser = [];
  };

  let taskText = '';
  const hidden = hiddenSeqs(events);
  const superseded = supersededReads(events);
  let notedTruncation = false;
  for (const event of events) {
    if (hidden.has(event.seq)) {
      if (!notedTruncation) pendingUser.push(TRUNCATION_NOTE);
      notedTruncation = true;
      continue;
    }
    switch (event.type) {
      case 'task_started':
        taskText = `<task>\n${event.task}\n</task>`;
        pendingUser.push(taskText);
        break;
      case 'history_condensed':
        // The summary replaces everything before it but the task itself; the log keeps it all.
        messages.length = 0;
        pendingUser = [taskText, `<condensed_history>\nThe earlier conversation was condensed into this summary:\n${event.summary}\n</condensed_history>`];
        break;
      case 'mode_switched':
        pendingUser.push(`[The user switched to ${event.mode === 'plan' ? 'PLAN' : 'ACT'} mode.]`);
        break;
      case 'skill_switched':
        pendingUser.push(`[The user switched to the "${event.skill}" skill.]`);
        break;
      case 'user_message':
        pendingUser.push(`<user_message>\n${event.text}\n</user_message>`);
        break;
      case 'request_started':
        if (event.environmentDetails) pendingUser.push(`<environment_details>\n${event.environmentDetails}\n</environment_details>`);
        flushUser();
        break;
      case 'model_response':
        flushUser();
        messages.push({ role: 'assistant', content: event.text || '(empty response)' });
        break;
      case 'tool_requested':
        requested.set(event.callId, event);
        break;
      case 'approval_answered':
        if (!event.approved) {
          answered.add(event.callId);
          const label = toolLabel(requested.get(event.callId));
          pendingUser.push(
            event.feedback
              ? `${label} The user denied this operation and said:\n<feedback>\n${event.feedback}\n</feedback>`
              : `${label} The user denied this operation.`,
          );
        }
        break;
      case 'tool_result':
        answered.add(event.callId);
        pendingUser.push(
          `${toolLabel(requested.get(event.callId))} Result:\n${superseded.has(event.seq) ? SUPERSEDED_READ_NOTE : event.output}`,
        );
        break;
      case 'tool_error':
        answered.add(event.callId);
        pendingUser.push(`${toolLabel(requested.get(event.callId), event.tool)} Error:\n${event.error}`);
        break;
      case 'no_tool_used':
        pendingUser.push(NO_TOOL_REMINDER);
        break;
      case 'task_resumed':
        pendingUser.push(resumptionNote(requested, answered));
        break;
      case 'task_completed':
      case 'task_aborted':
      case 'error':
      case 'new_task_requested':
      case 'history_truncated':
      case 'response_interrupted':
        break;
    }
  }
  flushUser();
  return messages;
}

function toolLabel(call: ToolRequested | undefined, fallbackName = 'tool'): string {
  if (!call) return `[${fallbackName}]`;
  const target = call.params.path ?? call.params.command;
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
    if (event.type === 'tool_requested' && event.tool === 'read_file') calls.set(event.callId, event);
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
