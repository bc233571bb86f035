import { z } from 'zod';
import { PROVIDER_IDS } from '../../shared/providers.js';
import { PANEL_VIEWS } from '../../shared/protocol.js';
import type { WebviewMessage } from '../../shared/protocol.js';

// Generous caps: a pasted log is fine, a runaway webview sending megabytes per message is not.
const MAX_TEXT = 1_000_000;
const id = z.string().min(1).max(200);
const text = z.string().max(MAX_TEXT);
const feedback = z.string().max(MAX_TEXT).optional();
const mode = z.enum(['plan', 'act']);
const view = z.enum(PANEL_VIEWS);
const provider = z.enum(PROVIDER_IDS);
// MCP server and tool names are keys of the user's config and the server's list; no other rule applies.
const mcpName = z.string().min(1).max(500);

/** Every message the webview may send, mirroring WebviewMessage in src/shared/protocol.ts. */
export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  z.object({ type: z.literal('newTask'), id, text }).strict(),
  z.object({ type: z.literal('sendMessage'), id, text }).strict(),
  z.object({ type: z.literal('approve'), id, callId: id, feedback }).strict(),
  z.object({ type: z.literal('reject'), id, callId: id, feedback }).strict(),
  z.object({ type: z.literal('answer'), id, text }).strict(),
  z.object({ type: z.literal('cancelTask'), id }).strict(),
  z.object({ type: z.literal('proceedCommand'), id, callId: id }).strict(),
  z.object({ type: z.literal('retry'), id }).strict(),
  z.object({ type: z.literal('setMode'), id, mode }).strict(),
  z.object({ type: z.literal('setSkill'), id, skill: z.string().min(1).max(200) }).strict(),
  z.object({ type: z.literal('showView'), id, view }).strict(),
  z
    .object({
      type: z.literal('saveSettings'),
      id,
      provider,
      model: z.string().max(500),
      baseUrl: z.string().max(2000),
      toolProtocol: z.enum(['xml', 'native']),
      apiKey: z.string().max(10_000).optional(),
    })
    .strict(),
  z.object({ type: z.literal('openTask'), id, taskId: id }).strict(),
  z.object({ type: z.literal('deleteTask'), id, taskId: id }).strict(),
  z.object({ type: z.literal('exportTask'), id, taskId: id }).strict(),
  z.object({ type: z.literal('mcpRestart'), id, server: mcpName }).strict(),
  z.object({ type: z.literal('mcpSetDisabled'), id, server: mcpName, disabled: z.boolean() }).strict(),
  z.object({ type: z.literal('mcpSetAutoApprove'), id, server: mcpName, tool: mcpName, autoApprove: z.boolean() }).strict(),
  z.object({ type: z.literal('mcpOpenConfig'), id, scope: z.enum(['global', 'workspace']) }).strict(),
  z.object({ type: z.literal('mcpShowLog'), id, server: mcpName }).strict(),
]);

// Compile-time proof that the schema and the protocol type describe the same messages.
type Parsed = z.infer<typeof webviewMessageSchema>;
const parsedIsProtocol = (message: Parsed): WebviewMessage => message;
const protocolIsParsed = (message: WebviewMessage): Parsed => message;
void parsedIsProtocol;
void protocolIsParsed;

/** The outcome of checking one incoming message. */
export type ParsedMessage =
  | { readonly ok: true; readonly message: WebviewMessage }
  /** `id` is the request id when the message had a usable one, so the error can be replied to. */
  | { readonly ok: false; readonly error: string; readonly id?: string };

/** Validates a message from the webview before anything acts on it. */
export function parseWebviewMessage(raw: unknown): ParsedMessage {
  const result = webviewMessageSchema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  const issues = result.error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  const requestId = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return {
    ok: false,
    error: `Invalid ${typeof type === 'string' ? `"${type.slice(0, 50)}" ` : ''}message: ${issues}`,
    ...(typeof requestId === 'string' && requestId.length > 0 && requestId.length <= 200 ? { id: requestId } : {}),
  };
}
