import type { PendingApproval } from '../../../src/shared/protocol.js';
import type { CommandEnd, LineStats } from '../../../src/shared/tool-details.js';
import { commandEndText } from '../../../src/shared/tool-result-summary.js';
import type { UiToolMessage } from '../../../src/shared/ui-messages.js';

/** A command's card: what it printed, how it ended, and notes about either. */
interface CommandView {
  readonly output: string;
  /** How it ended; absent while it runs and for results logged before this was recorded. */
  readonly end?: CommandEnd;
  readonly note?: string;
}

/**
 * What a command card shows, from the result's facts: live output while it runs; then (even when
 * more live output came after the result) the logged
 * output, exit and notes. A result logged before facts were recorded shows its text as it is.
 */
export function commandView(message: UiToolMessage, live: string | undefined): CommandView | undefined {
  // Live output only while it runs: a last chunk can arrive after the result, which says how it ended.
  if (live !== undefined && (message.status === 'running' || message.details?.command === undefined)) return { output: live };
  const facts = message.details?.command;
  if (facts === undefined) return message.output === undefined ? undefined : { output: message.output };
  const notes = [
    endNote(facts.end),
    facts.truncated ? 'The output was too long: the middle was cut.' : undefined,
    facts.ignoredPaths?.length ? `It named paths excluded from Smith's tools: ${facts.ignoredPaths.join(', ')}.` : undefined,
  ].filter((note) => note !== undefined);
  return { output: facts.output, end: facts.end, ...(notes.length > 0 ? { note: notes.join(' ') } : {}) };
}

/** The exit badge says how an exited command ended; the other endings get a note. */
function endNote(end: CommandEnd): string | undefined {
  if (end.kind === 'exited') return undefined;
  const text = commandEndText(end);
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

/** The exit badge: the code (ok when 0), or the signal that ended the command; none when it did not exit. */
export function exitBadge(end: CommandEnd | undefined): { readonly text: string; readonly label: string; readonly ok: boolean } | undefined {
  if (end?.kind !== 'exited') return undefined;
  if (end.exitCode !== null) return { text: String(end.exitCode), label: `Exit code ${end.exitCode}`, ok: end.exitCode === 0 };
  const signal = end.signal ?? 'a signal';
  return { text: signal, label: `Ended by ${signal}`, ok: false };
}

/** Lines an edit changed: what landed, or while the call waits, what its approval proposes. */
export function editStats(message: UiToolMessage, approval: PendingApproval | undefined): LineStats | undefined {
  const edit = message.details?.edit;
  if (edit !== undefined) return { added: edit.added, removed: edit.removed };
  return approval?.callId === message.callId ? approval.stats : undefined;
}
