// Plays the extension host for the panel outside VS Code: defines acquireVsCodeApi, records what
// the panel posts on window.__posted and lets a page (a test, a benchmark, a person) drive it
// through window.__host. Open harness.html?demo to see a sample task.
import type { HostMessage, PanelState, WebviewMessage } from '../../src/shared/protocol.js';
import { sampleMcpState } from './sample-mcp.js';
import { sampleMessages } from './sample-messages.js';

/** The test/benchmark surface of the harness. */
export interface HarnessHost {
  /** Delivers a host message the way VS Code does (a `message` event on window), synchronously. */
  send(message: HostMessage): void;
  /** `'ok'` (default) answers every request with `{ok: true}` on the next task; `'manual'` waits for `reply`. */
  replies: 'ok' | 'manual';
  /** Answers a request by id. */
  reply(id: string, error?: string): void;
  /** A varied sample message list. */
  sampleMessages: typeof sampleMessages;
  /** A panel state with a completed task of `messageCount` sample messages, or no task. */
  sampleState(messageCount?: number): PanelState;
  /** MCP servers in every state. */
  sampleMcpState: typeof sampleMcpState;
}

declare global {
  interface Window {
    __posted: WebviewMessage[];
    __host: HarnessHost;
    __vscodeState: unknown;
    __cspViolations: string[];
  }
}

window.__posted = [];
// Kept in sessionStorage so it survives a reload, as VS Code keeps a webview's state.
window.__vscodeState = JSON.parse(sessionStorage.getItem('smith-harness-state') ?? 'null') as unknown;
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.__cspViolations.push(`${event.violatedDirective}: ${event.blockedURI || event.sample}`);
});

function sampleState(count?: number): PanelState {
  return {
    view: 'chat',
    settings: { provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: '', toolProtocol: 'xml', hasApiKey: true },
    history: [{ taskId: 'demo', task: 'Add input validation to the signup form', startedAt: 1_700_000_000_000, updatedAt: 1_700_000_060_000, status: 'completed' }],
    modes: [
      { slug: 'default', name: 'Default' },
      { slug: 'reviewer', name: 'Code reviewer' },
    ],
    mode: 'act',
    modeSlug: 'default',
    mcp: sampleMcpState(),
    autoApprove: { readFiles: true, editFiles: false, safeCommands: true, allCommands: false, mcpTools: false, maxRequests: 25 },
    task:
      count === undefined
        ? undefined
        : {
            id: 'demo',
            messages: sampleMessages(count),
            usage: { inputTokens: 12_345, outputTokens: 2_345, cacheReadTokens: 8_000, cacheWriteTokens: 1_200 },
            cost: 0.0123,
            mode: 'act',
            modeSlug: 'default',
            status: 'completed',
          },
  };
}

const host: HarnessHost = {
  send(message) {
    window.dispatchEvent(new MessageEvent('message', { data: message }));
  },
  replies: 'ok',
  reply(id, error) {
    host.send(error === undefined ? { type: 'reply', id, ok: true } : { type: 'reply', id, ok: false, error });
  },
  sampleMessages,
  sampleState,
  sampleMcpState,
};
window.__host = host;

let acquired = false;
(window as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => {
  if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
  acquired = true;
  return {
    postMessage(message: unknown) {
      const posted = message as WebviewMessage;
      window.__posted.push(posted);
      if (posted.type === 'ready' && new URLSearchParams(location.search).has('demo')) {
        setTimeout(() => host.send({ type: 'snapshot', state: sampleState(40) }), 0);
      }
      if ('id' in posted && host.replies === 'ok') setTimeout(() => host.reply(posted.id), 0);
    },
    getState: () => window.__vscodeState,
    setState(state: unknown) {
      window.__vscodeState = state;
      sessionStorage.setItem('smith-harness-state', JSON.stringify(state));
    },
  };
};
