import { stripAnsi } from '../core/process/output-buffer.js';
import type { SnapshotMessage } from '../shared/first-snapshot.js';
import type { HostMessage, McpPanelState, WebviewRequest } from '../shared/protocol.js';
import type { RequestHandlers } from './message-handlers.js';
import { CHAT_PAGE, CHAT_UPDATE_CAP } from './chat-window.js';
import { parseWebviewMessage } from '../shared/protocol.js';
import type { Disposable, Event } from './event-emitter.js';
import type { PanelChange, PanelSource } from './panel-changes.js';

/** The webview side the messenger talks to: a VS Code WebviewView or WebviewPanel, or an in-memory transport. */
export interface WebviewEndpoint {
  postMessage(message: HostMessage): PromiseLike<unknown> | undefined;
  readonly onDidReceiveMessage: Event<unknown>;
  isVisible(): boolean;
  readonly onDidChangeVisibility: Event<unknown>;
}

/** Timing of the messenger; tests may shorten it. */
interface PanelMessengerOptions {
  /** Least time between two `streaming` (and `commandOutput`) messages (default 50 ms). */
  readonly throttleMs?: number;
  /** Where invalid messages and failed requests are logged. */
  readonly log?: (message: string) => void;
}

/**
 * Connects one webview to the panel's state. Incoming messages are validated, then
 * dispatched to a handler and answered with exactly one reply. Outgoing: a full snapshot on
 * `ready`; while visible, message deltas as they happen, throttled streaming and command output,
 * and the latest MCP state; while hidden nothing but a note that a snapshot is due, sent when it
 * shows again. Text for the Task box goes to the first ready, visible webview, exactly once.
 */
export class PanelMessenger implements Disposable {
  private ready = false;
  private snapshotDue = false;
  private snapshotTimer: NodeJS.Timeout | undefined;
  private streamTimer: NodeJS.Timeout | undefined;
  private lastStreamAt = 0;
  private outputTimer: NodeJS.Timeout | undefined;
  private mcpTimer: NodeJS.Timeout | undefined;
  private mcpState: McpPanelState | undefined;
  private tasksTimer: NodeJS.Timeout | undefined;
  /** Output held back, by task and call (`taskId\0callId`). */
  private readonly output = new Map<string, string>();
  /** The first message index a change dropped while the webview was hidden changed (undefined: none). */
  private missedFrom: number | undefined;
  /** How much of the streaming message (by key) this webview holds; undefined: none, send it whole. */
  private streamed: { key: string; text: number; reasoning: number } | undefined;
  private readonly subscriptions: { dispose(): void }[];
  private readonly throttleMs: number;

  constructor(
    private readonly endpoint: WebviewEndpoint,
    private readonly source: PanelSource,
    private readonly handlers: RequestHandlers,
    private readonly options: PanelMessengerOptions = {},
  ) {
    this.throttleMs = options.throttleMs ?? 50;
    this.subscriptions = [
      endpoint.onDidReceiveMessage((raw) => void this.receive(raw)),
      endpoint.onDidChangeVisibility(() => this.visibilityChanged()),
      source.onDidChange((change) => this.changed(change)),
    ];
  }

  /** Handles one message from the webview; resolves once it has been answered. */
  async receive(raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.options.log?.(parsed.error);
      if (parsed.id) this.post({ type: 'reply', id: parsed.id, ok: false, error: parsed.error });
      return;
    }
    const message = parsed.message;
    if (message.type === 'ready') {
      this.ready = true;
      this.sendSnapshot();
      this.flushInserts();
      return;
    }
    await this.dispatch(message);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    clearTimeout(this.snapshotTimer);
    clearTimeout(this.streamTimer);
    clearTimeout(this.outputTimer);
    clearTimeout(this.mcpTimer);
    clearTimeout(this.tasksTimer);
  }

  private async dispatch(request: WebviewRequest): Promise<void> {
    const handler = this.handlers[request.type] as (message: WebviewRequest, answer: (message: HostMessage) => void) => Promise<void> | void;
    const answers: HostMessage[] = [];
    try {
      await handler(request, (message) => answers.push(message));
      // What the request changed arrives first, so the webview never shows the old value after the reply.
      this.flushMcp();
      if (this.snapshotTimer) this.sendSnapshot();
      else if (this.tasksTimer) this.flushTasks();
      for (const answer of answers) this.post(answer);
      this.post({ type: 'reply', id: request.id, ok: true });
    } catch (error) {
      this.flushMcp();
      const message = error instanceof Error ? error.message : String(error);
      this.options.log?.(`${request.type} failed: ${message}`);
      this.post({ type: 'reply', id: request.id, ok: false, error: message });
    }
  }

  private changed(change: PanelChange): void {
    if (!this.ready) return; // `ready` brings a snapshot
    if (change.kind === 'insertText') {
      // Not state: it stays with the source until a visible webview takes it, so it is inserted once.
      this.flushInserts();
      return;
    }
    if (!this.endpoint.isVisible()) {
      this.snapshotDue = true;
      // Messages older than the next snapshot carries may change unseen: the webview must drop the ones it paged in.
      if (change.kind === 'messages') this.missedFrom = Math.min(this.missedFrom ?? change.start, change.start);
      this.dropDeltas();
      return;
    }
    switch (change.kind) {
      case 'state':
        this.snapshotTimer ??= setTimeout(() => this.sendSnapshot(), 0);
        break;
      case 'messages':
        // Output still held back goes first, so a command's last chunk never follows its result.
        if (this.outputTimer) {
          clearTimeout(this.outputTimer);
          this.flushOutput();
        }
        // Sent even when a snapshot is due: it carries only the newest page, and older messages the
        // webview paged in must stay current. A change reaching far back resets the webview's chat.
        if (change.messages.length > CHAT_UPDATE_CAP) {
          const end = change.start + change.messages.length;
          this.post({ type: 'taskMessages', taskId: change.taskId, start: end - CHAT_PAGE, messages: change.messages.slice(-CHAT_PAGE), reset: true });
        } else {
          this.post({ type: 'taskMessages', taskId: change.taskId, start: change.start, messages: change.messages });
        }
        break;
      case 'progress':
        // Small and ordered with the messages: sent as it comes, unless a snapshot will carry it.
        if (!this.snapshotTimer) this.post({ type: 'taskProgress', taskId: change.taskId, progress: change.progress });
        break;
      case 'streaming':
        this.scheduleStreaming();
        break;
      case 'commandOutput': {
        const key = `${change.taskId}\0${change.callId}`;
        this.output.set(key, (this.output.get(key) ?? '') + change.text);
        this.outputTimer ??= setTimeout(() => this.flushOutput(), this.throttleMs);
        break;
      }
      case 'tasks':
        // Several tasks change at once (one ends, another starts waiting): the latest list, once.
        this.tasksTimer ??= setTimeout(() => this.flushTasks(), 0);
        break;
      case 'mcp':
        // A server that connects changes state several times in a row; send the latest once.
        this.mcpState = change.state;
        this.mcpTimer ??= setTimeout(() => this.flushMcp(), 0);
        break;
    }
  }

  private visibilityChanged(): void {
    if (!this.ready || !this.endpoint.isVisible()) return;
    if (this.snapshotDue) this.sendSnapshot();
    this.flushInserts();
  }

  private flushInserts(): void {
    if (!this.endpoint.isVisible()) return;
    for (const text of this.source.takeInserts()) this.post({ type: 'insertText', text });
  }

  /**
   * The snapshot message as it would be sent now, without sending it: the chat page's HTML carries
   * one, so the webview draws before its `ready` is answered (which then sends a fresh one).
   */
  snapshotMessage(): SnapshotMessage {
    return this.buildSnapshot().message;
  }

  private sendSnapshot(): void {
    clearTimeout(this.snapshotTimer);
    this.snapshotTimer = undefined;
    this.snapshotDue = false;
    // The snapshot carries the MCP state too, newer than any pending one.
    clearTimeout(this.mcpTimer);
    this.mcpTimer = undefined;
    this.mcpState = undefined;
    clearTimeout(this.tasksTimer);
    this.tasksTimer = undefined;
    const { message, streamed } = this.buildSnapshot();
    const dropOlder = this.missedFrom !== undefined && this.missedFrom < (message.state.task?.messagesFrom ?? 0);
    this.missedFrom = undefined;
    this.post(dropOlder ? { ...message, dropOlder: true } : message);
    // The webview now holds what the snapshot carried: later parts append to it.
    this.streamed = streamed;
  }

  private buildSnapshot(): { message: SnapshotMessage; streamed: PanelMessenger['streamed'] } {
    const state = this.source.snapshot();
    const streaming = this.source.streaming();
    const live = streaming !== undefined && streaming.taskId === state.task?.id && (streaming.text.length > 0 || streaming.reasoning.length > 0);
    const message: SnapshotMessage = {
      type: 'snapshot',
      state,
      ...(live
        ? {
            streaming: {
              ...(streaming.key !== undefined ? { key: streaming.key } : {}),
              text: streaming.text.textFrom(0),
              reasoning: streaming.reasoning.textFrom(0),
            },
          }
        : {}),
    };
    const streamed =
      live && streaming.key !== undefined ? { key: streaming.key, text: streaming.text.length, reasoning: streaming.reasoning.length } : undefined;
    return { message, streamed };
  }

  private scheduleStreaming(): void {
    if (this.streamTimer) return;
    const wait = this.lastStreamAt + this.throttleMs - Date.now();
    if (wait <= 0) this.sendStreaming();
    else this.streamTimer = setTimeout(() => this.sendStreaming(), wait);
  }

  private sendStreaming(): void {
    clearTimeout(this.streamTimer);
    this.streamTimer = undefined;
    this.lastStreamAt = Date.now();
    const streaming = this.source.streaming();
    if (!streaming) return;
    const { taskId, key, text, reasoning } = streaming;
    const held = this.streamed;
    if (key !== undefined && held?.key === key && held.text <= text.length && held.reasoning <= reasoning.length) {
      // The same message, grown: only what was added since the last send.
      if (held.text === text.length && held.reasoning === reasoning.length) return;
      this.post({
        type: 'streaming',
        taskId,
        key,
        textFrom: held.text,
        text: text.textFrom(held.text),
        reasoningFrom: held.reasoning,
        reasoning: reasoning.textFrom(held.reasoning),
      });
    } else {
      this.post({ type: 'streaming', taskId, ...(key !== undefined ? { key } : {}), text: text.textFrom(0), reasoning: reasoning.textFrom(0) });
    }
    this.streamed = key === undefined ? undefined : { key, text: text.length, reasoning: reasoning.length };
  }

  private flushOutput(): void {
    this.outputTimer = undefined;
    for (const [key, text] of this.output) {
      const [taskId, callId] = key.split('\0') as [string, string];
      const clean = stripAnsi(text.replace(/\r\n/g, '\n'));
      if (clean) this.post({ type: 'commandOutput', taskId, callId, text: clean });
    }
    this.output.clear();
  }

  private flushMcp(): void {
    clearTimeout(this.mcpTimer);
    this.mcpTimer = undefined;
    const state = this.mcpState;
    this.mcpState = undefined;
    if (state) this.post({ type: 'mcpState', state });
  }

  private flushTasks(): void {
    clearTimeout(this.tasksTimer);
    this.tasksTimer = undefined;
    // A snapshot on its way carries the list.
    if (this.snapshotTimer) return;
    this.post({ type: 'liveTasks', tasks: this.source.liveTasks?.() ?? [] });
  }

  private dropDeltas(): void {
    clearTimeout(this.streamTimer);
    this.streamTimer = undefined;
    clearTimeout(this.outputTimer);
    this.outputTimer = undefined;
    this.output.clear();
    clearTimeout(this.mcpTimer);
    this.mcpTimer = undefined;
    this.mcpState = undefined;
    clearTimeout(this.tasksTimer);
    this.tasksTimer = undefined;
  }

  private post(message: HostMessage): void {
    // A disposed webview rejects; its state is rebuilt from a snapshot when it comes back.
    Promise.resolve(this.endpoint.postMessage(message)).catch(() => undefined);
  }
}
