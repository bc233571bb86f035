// The streaming path from a provider's chunks to every screen, in one process: the parser, the
// block changes read after every chunk, redaction with a key configured, then each consumer the
// engine feeds (the CLI's human reporter, stream-json lines, the diff editor's streamed write,
// the panel's streaming message through the messenger into the webview's store).
import { Writable } from 'node:stream';
import { HumanReporter } from '../src/cli/human-reporter.js';
import { createStyle } from '../src/cli/style.js';
import { streamJsonLine, writeStreamJson } from '../src/cli/stream-json.js';
import { BlockChangeReader } from '../src/core/parse/block-changes.js';
import { StreamingToolParser } from '../src/core/parse/streaming-tool-parser.js';
import type { ToolGrammar } from '../src/core/parse/types.js';
import type { SecretRedactor } from '../src/core/secrets/secret-redactor.js';
import type { TurnDelta } from '../src/core/task/model-turn.js';
import { RedactedDeltas } from '../src/core/task/redacted-deltas.js';
import type { TaskUpdate } from '../src/core/task/task-types.js';
import { streamEditsToDiff } from '../src/panel/edit-streaming.js';
import { Emitter } from '../src/panel/event-emitter.js';
import type { PanelChange, PanelSource, StreamingView } from '../src/panel/panel-changes.js';
import { PanelMessenger } from '../src/panel/panel-messenger.js';
import type { EditReview } from '../src/panel/panel-ports.js';
import { StreamingMessage, emptyStreamingView } from '../src/panel/streaming-message.js';
import type { HostMessage, PanelState, TaskView } from '../src/shared/protocol.js';
import { initialWebviewState, panelReducer, type WebviewState } from '../webview-ui/src/state/panel-reducer.js';

const TASK: TaskView = {
  id: 'bench',
  messages: [],
  usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
  mode: 'act',
  modeSlug: 'code',
  status: 'running',
};

const STATE: PanelState = {
  view: 'chat',
  settings: { provider: 'openai-compatible', model: 'm', baseUrl: '', toolProtocol: 'xml', hasApiKey: true },
  history: [],
  modes: [],
  mode: 'act',
  modeSlug: 'code',
  mcp: { servers: [], problems: [], configFiles: { global: '/tmp/mcp.json' } },
  autoApprove: { readFiles: true, editFiles: true, safeCommands: false, allCommands: false, mcpTools: false, maxRequests: 25 },
  task: TASK,
};

/** What the consumers ended with, so a run can be checked and nothing is optimised away. */
export interface ConsumersResult {
  readonly store: WebviewState;
  readonly reporterChars: number;
  readonly streamJsonLines: number;
  readonly streamedWriteChars: number;
}

/** The panel's side, as LiveTasks and the TaskController wire it, posting into the webview's reducer. */
class PanelSide implements PanelSource {
  private message: StreamingMessage | undefined;
  private readonly changes = new Emitter<PanelChange>();
  private readonly received = new Emitter<unknown>();
  store: WebviewState = initialWebviewState;
  readonly messenger: PanelMessenger;

  constructor() {
    const endpoint = {
      postMessage: (posted: HostMessage) => {
        this.store = panelReducer(this.store, posted);
        return undefined;
      },
      onDidReceiveMessage: this.received.event,
      isVisible: () => true,
      onDidChangeVisibility: new Emitter<unknown>().event,
    };
    const handlers = new Proxy({}, { get: () => () => {} }) as ConstructorParameters<typeof PanelMessenger>[2];
    // No throttle: every change reaches the store, the most the webview can be asked to do.
    this.messenger = new PanelMessenger(endpoint, this, handlers, { throttleMs: 0 });
  }

  async ready(): Promise<void> {
    await this.messenger.receive({ type: 'ready' });
  }

  delta(delta: TurnDelta): void {
    if (delta.kind === 'text') return;
    this.message ??= new StreamingMessage('bench:1');
    if (this.message.apply(delta)) this.changes.fire({ kind: 'streaming' });
  }

  snapshot(): PanelState {
    return STATE;
  }
  streaming(): StreamingView | undefined {
    const message = this.message;
    return message ? { taskId: TASK.id, key: message.key, text: message.text, reasoning: message.reasoning } : emptyStreamingView(TASK.id);
  }
  takeInserts(): readonly string[] {
    return [];
  }
  onDidChange(listener: (change: PanelChange) => void): { dispose(): void } {
    return this.changes.event(listener);
  }
}

/**
 * Streams `chunks` as runModelTurn feeds its listeners (every block read after every chunk, with
 * no one-tool cut, so a message of many blocks is read whole), through redaction and into every
 * consumer.
 */
export async function streamThroughConsumers(chunks: readonly string[], grammar: ToolGrammar, redactor: SecretRedactor, cwd: string): Promise<ConsumersResult> {
  let reporterChars = 0;
  let streamJsonLines = 0;
  let streamedWriteChars = 0;
  const stderr = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      reporterChars += chunk.length;
      done();
    },
  });
  const stdout = new Writable({
    write(_chunk, _encoding, done) {
      streamJsonLines++;
      done();
    },
  });
  const reporter = new HumanReporter(stderr, createStyle(false, redactor), 'normal');
  const edits: EditReview = {
    streamPartial: (_path, content) => {
      streamedWriteChars = content.length;
    },
    present: async () => {},
    accept: async () => ({}),
    reject: async () => {},
    discard: async () => {},
  };
  const diff = streamEditsToDiff(edits, cwd);
  const panel = new PanelSide();
  await panel.ready();
  const emit = (delta: TurnDelta) => {
    const update: TaskUpdate = { type: 'delta', delta };
    reporter.handle(update);
    writeStreamJson(stdout, streamJsonLine('bench', update));
    diff(update);
    panel.delta(delta);
  };
  const redacted = new RedactedDeltas(redactor);
  const show = (delta: TurnDelta) => {
    for (const shown of redacted.map(delta)) emit(shown);
  };
  const parser = new StreamingToolParser(grammar);
  const reader = new BlockChangeReader();
  for (const chunk of chunks) {
    parser.push(chunk);
    show({ kind: 'text', text: chunk });
    for (const change of reader.read(parser)) show(change);
  }
  parser.finish();
  for (const change of reader.read(parser)) show(change);
  panel.messenger.dispose();
  return { store: panel.store, reporterChars, streamJsonLines, streamedWriteChars };
}
