// The extension ↔ webview protocol: one discriminated union per direction. Requests carry an id and
// get exactly one `reply`. The zod schemas (panel-state-schema.ts, webview-message-schema.ts,
// host-message-schema.ts) are the one definition: the TypeScript types are inferred from them, the
// host validates every webview message with them, and the webview validates every host message with them.
import type * as z from './zod-config.js';
import { hostMessageSchema, type HostMessage } from './host-message-schema.js';
import { webviewMessageSchema, type WebviewMessage } from './webview-message-schema.js';

export type { ProviderId as ProviderName } from './providers.js';
export * from './mcp-schemas.js';
export * from './provider-schemas.js';
export {
  PANEL_VIEWS,
  type AutoApproveView,
  type HistoryItem,
  type LiveTask,
  type MentionSuggestion,
  type PanelState,
  type PanelView,
  type PendingApproval,
  type PendingQuestion,
  type TaskProgress,
  type TaskRunStatus,
  type TaskView,
  type WorktreeAction,
  type WorktreeView,
} from './panel-state-schema.js';
export type { WebviewMessage, WebviewRequest } from './webview-message-schema.js';
export type { HostMessage } from './host-message-schema.js';

/** The outcome of checking one incoming message. */
type Parsed<T> =
  | { readonly ok: true; readonly message: T }
  /** `id` is the request id when the message had a usable one, so the error can be replied to. */
  | { readonly ok: false; readonly error: string; readonly id?: string };

/** Validates a message from the webview before anything acts on it. */
export function parseWebviewMessage(raw: unknown): Parsed<WebviewMessage> {
  return parseWith(webviewMessageSchema, raw);
}

/** Validates a message from the host before the webview's state takes it. */
export function parseHostMessage(raw: unknown): Parsed<HostMessage> {
  return parseWith(hostMessageSchema, raw);
}

function parseWith<T>(schema: z.ZodMiniType<T>, raw: unknown): Parsed<T> {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  const issues = result.error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
  const record = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown; id?: unknown }) : {};
  const type = record.type;
  const requestId = record.id;
  return {
    ok: false,
    error: `Invalid ${typeof type === 'string' ? `"${type.slice(0, 50)}" ` : ''}message: ${issues}`,
    ...(typeof requestId === 'string' && requestId.length > 0 && requestId.length <= 200 ? { id: requestId } : {}),
  };
}
