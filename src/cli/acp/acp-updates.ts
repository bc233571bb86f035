// A Smith task's updates as ACP `session/update` notifications. The same mapper serves a live turn
// (the model's text as it streams) and a loaded session (the log replayed, text from each response).
import { resolve } from 'node:path';
import type { SessionUpdate, ToolCallContent, ToolCallStatus } from '@agentclientprotocol/sdk';
import type { TaskEvent } from '../../core/log/events.js';
import type { TaskUpdate } from '../../core/task/task-types.js';
import { parseTodoList } from '../../shared/todo-items.js';
import { isTool, toolEntry } from '../../shared/tool-catalogue.js';
import type { PlanAct } from '../../shared/plan-act.js';
import { acpModeId } from './acp-modes.js';
import { acpToolKind, acpToolLocations, acpToolTitle, asksUser, spokenText } from './acp-tool-calls.js';

/** Most characters of a command's output or a tool's result sent in one update (the end is kept). */
export const MAX_SHOWN_OUTPUT = 20_000;

/** Reads a file's text as it is now (absolute path), or undefined when it is missing, binary or too large. */
export type FileText = (absolutePath: string) => string | undefined;

/** The tail of a text that fits in one update, saying what was left out. */
function tail(text: string): string {
  return text.length > MAX_SHOWN_OUTPUT ? `[… ${text.length - MAX_SHOWN_OUTPUT} characters before this]\n${text.slice(-MAX_SHOWN_OUTPUT)}` : text;
}

function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}

/**
 * Maps a task's updates to session updates. It keeps what a turn needs between updates: which
 * streamed block is text or thinking, each edit's text before it ran (for the diff), each
 * command's output so far, and Plan/Act and the mode (a change of either is one mode update).
 */
export class AcpUpdateMapper {
  private readonly blockKinds = new Map<number, string>();
  private readonly editBefore = new Map<string, string | null>();
  private readonly output = new Map<string, string>();
  private readonly calls = new Map<string, { tool: string; params: Readonly<Record<string, string>> }>();
  private state: { mode: PlanAct; modeSlug: string };

  constructor(
    private readonly cwd: string,
    /** Replay a log: the model's text comes from its responses, not from streamed deltas. */
    private readonly replay: boolean,
    private readonly fileText: FileText,
    start: { readonly mode: PlanAct; readonly modeSlug: string },
  ) {
    this.state = { ...start };
  }

  /** The notifications for one update of a running task. */
  update(update: TaskUpdate): SessionUpdate[] {
    switch (update.type) {
      case 'event':
        return this.event(update.event);
      case 'delta':
        return this.delta(update.delta);
      case 'progress': {
        const call = this.calls.get(update.callId);
        if (!call) return [];
        const shown = (this.output.get(update.callId) ?? '') + update.text;
        this.output.set(update.callId, shown);
        return [{ sessionUpdate: 'tool_call_update', toolCallId: update.callId, status: 'in_progress', content: [textContent(tail(shown))] }];
      }
      case 'retry':
        return [];
    }
  }

  private delta(delta: Extract<TaskUpdate, { type: 'delta' }>['delta']): SessionUpdate[] {
    switch (delta.kind) {
      case 'reasoning':
        return [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: delta.text } }];
      case 'block_opened':
        this.blockKinds.set(delta.index, delta.block.kind);
        return [];
      case 'block_appended': {
        const kind = delta.param === undefined ? this.blockKinds.get(delta.index) : undefined;
        if (kind === 'text') return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: delta.text } }];
        if (kind === 'thinking') return [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: delta.text } }];
        return [];
      }
      default:
        // The raw text repeats what the blocks say (tool calls included); the blocks are shown.
        return [];
    }
  }

  /** The notifications for one logged event. */
  event(event: TaskEvent): SessionUpdate[] {
    switch (event.type) {
      case 'task_started':
        this.state = { mode: event.mode, modeSlug: event.modeSlug };
        return this.replay ? [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: event.task } }] : [];
      case 'user_message':
        return this.replay ? [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: event.text } }] : [];
      case 'request_started':
        this.blockKinds.clear();
        return [];
      case 'model_response':
        return this.replay ? this.response(event) : [];
      case 'tool_requested':
        return this.requested(event.callId, event.tool, event.params);
      case 'tool_auto_approved':
        return this.calls.has(event.callId) ? [{ sessionUpdate: 'tool_call_update', toolCallId: event.callId, status: 'in_progress' }] : [];
      case 'approval_answered':
        if (!this.calls.has(event.callId)) return [];
        return event.approved
          ? [{ sessionUpdate: 'tool_call_update', toolCallId: event.callId, status: 'in_progress' }]
          : [
              {
                sessionUpdate: 'tool_call_update',
                toolCallId: event.callId,
                status: 'failed',
                content: [textContent(`Rejected${event.feedback ? `: ${event.feedback}` : '.'}`)],
              },
            ];
      case 'tool_result':
        return this.result(event);
      case 'tool_error':
        return this.calls.has(event.callId)
          ? [{ sessionUpdate: 'tool_call_update', toolCallId: event.callId, status: 'failed', content: [textContent(tail(event.error))] }]
          : [];
      case 'todo_list_edited':
        return [this.plan(event.items)];
      case 'mode_switched':
        return this.switchTo({ ...this.state, mode: event.mode });
      case 'mode_slug_switched':
        return this.switchTo({ ...this.state, modeSlug: event.modeSlug });
      case 'error':
        return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\nSmith stopped: ${event.message}` } }];
      default:
        return [];
    }
  }

  private response(event: Extract<TaskEvent, { type: 'model_response' }>): SessionUpdate[] {
    const updates: SessionUpdate[] = [];
    if (event.reasoning) updates.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.reasoning } });
    for (const block of event.blocks) {
      if (block.kind === 'text' && block.text.trim() !== '')
        updates.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: block.text } });
      else if (block.kind === 'thinking') updates.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: block.text } });
    }
    return updates;
  }

  private requested(callId: string, tool: string, params: Readonly<Record<string, string>>): SessionUpdate[] {
    // Live, a question is sent when it is asked (the session's question port), as the loop's own questions are.
    if (asksUser(tool) && !this.replay) return [];
    const spoken = spokenText(tool, params);
    if (spoken !== undefined) return spoken.trim() === '' ? [] : [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: spoken } }];
    this.calls.set(callId, { tool, params });
    // Shown as the plan once the list is accepted (its result), not as a call.
    if (isTool(tool, 'update_todo_list')) return [];
    if (toolEntry(tool)?.group === 'edit' && params.path !== undefined && !this.replay) {
      // Read now, before the call runs: the listener sees the event as it is logged.
      this.editBefore.set(callId, this.fileText(resolve(this.cwd, params.path)) ?? null);
    }
    return [
      {
        sessionUpdate: 'tool_call',
        toolCallId: callId,
        title: acpToolTitle(tool, params),
        kind: acpToolKind(tool),
        status: 'pending',
        locations: acpToolLocations(params, this.cwd),
        rawInput: params,
      },
    ];
  }

  private result(event: Extract<TaskEvent, { type: 'tool_result' }>): SessionUpdate[] {
    const call = this.calls.get(event.callId);
    if (!call) return [];
    if (isTool(call.tool, 'update_todo_list')) {
      const items = parseTodoList(call.params.todos ?? '');
      return items ? [this.plan(items)] : [];
    }
    const details = event.details;
    let status: ToolCallStatus = 'completed';
    let content: ToolCallContent[];
    let locations = acpToolLocations(call.params, this.cwd, details?.read?.firstLine);
    if (details?.edit) {
      const path = resolve(this.cwd, details.edit.path);
      locations = [{ path }];
      const before = this.editBefore.get(event.callId);
      const after = this.replay ? undefined : this.fileText(path);
      content =
        after === undefined
          ? [textContent(`${details.edit.created ? 'Created' : 'Edited'} ${details.edit.path} (+${details.edit.added} -${details.edit.removed})`)]
          : [{ type: 'diff', path, oldText: before ?? null, newText: after }];
    } else if (details?.command) {
      const end = details.command.end;
      // A command left running in the background has handed its call back: the call is over.
      status = (end.kind === 'exited' && end.exitCode === 0) || end.kind === 'backgrounded' ? 'completed' : 'failed';
      content = [textContent(tail(details.command.output || event.output))];
    } else {
      content = [textContent(tail(event.output))];
    }
    this.output.delete(event.callId);
    this.editBefore.delete(event.callId);
    return [{ sessionUpdate: 'tool_call_update', toolCallId: event.callId, status, content, locations, rawOutput: details ?? null }];
  }

  private plan(items: readonly { readonly text: string; readonly status: 'pending' | 'in_progress' | 'completed' }[]): SessionUpdate {
    return { sessionUpdate: 'plan', entries: items.map((item) => ({ content: item.text, status: item.status, priority: 'medium' })) };
  }

  /** Plan/Act and the mode are now `next`: one mode update when that is a change. */
  switchTo(next: { mode: PlanAct; modeSlug: string }): SessionUpdate[] {
    const changed = next.mode !== this.state.mode || next.modeSlug !== this.state.modeSlug;
    this.state = next;
    return changed ? [{ sessionUpdate: 'current_mode_update', currentModeId: acpModeId(next) }] : [];
  }
}
