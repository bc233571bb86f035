// The messages the extension host sends the webview: state, its changes, and the replies to requests.
import * as z from './zod-config.js';
import type { DeepReadonly } from './deep-readonly.js';
import { mcpPanelStateSchema } from './mcp-schemas.js';
import { uiMessageSchema } from './ui-messages.js';
import { panelStateSchema, taskProgressSchema, liveTaskSchema } from './panel-state-schema.js';

/** Messages from the extension host to the webview. */
export const hostMessageSchema = z.union([
  /**
   * The whole panel state, with the open task's assistant message as it streams at that moment (absent
   * between responses): one message, so the logged message and a stale streamed copy never show together.
   */
  /**
   * The webview keeps older messages it paged in before the snapshot's `messagesFrom`, unless
   * `dropOlder`: some of them changed while it could not be told (it was hidden).
   */
  z.object({
    type: z.literal('snapshot'),
    state: panelStateSchema,
    streaming: z.optional(z.object({ key: z.optional(z.string()), text: z.string(), reasoning: z.string() })),
    dropOlder: z.optional(z.literal(true)),
  }),
  /**
   * Replaces the open task's messages from index `start` on (most updates touch only the tail).
   * `reset`: messages before `start` changed too and are not sent: the webview drops the ones it
   * holds and asks for them again (`olderMessages`).
   */
  z.object({
    type: z.literal('taskMessages'),
    taskId: z.string(),
    start: z.number().check(z.int(), z.nonnegative()),
    messages: z.array(uiMessageSchema),
    reset: z.optional(z.literal(true)),
  }),
  /** The answer to an `olderMessages` request: the messages just before `before`, the first at index `start`. */
  z.object({
    type: z.literal('olderMessages'),
    taskId: z.string(),
    before: z.string(),
    start: z.number().check(z.int(), z.nonnegative()),
    messages: z.array(uiMessageSchema),
  }),
  /**
   * The assistant's message as it streams (transient, replaced by the logged one): `text` and
   * `reasoning` replace what the view holds from `textFrom` / `reasoningFrom` on (default 0, the
   * whole message), so a growing message is sent by appending. `key` names the message: a part
   * with an offset applies only to the message of the same key.
   */
  z.object({
    type: z.literal('streaming'),
    taskId: z.string(),
    key: z.optional(z.string()),
    textFrom: z.optional(z.number().check(z.int(), z.nonnegative())),
    text: z.string(),
    reasoningFrom: z.optional(z.number().check(z.int(), z.nonnegative())),
    reasoning: z.string(),
  }),
  /**
   * The open task's usage, todo list and context figures after a logged event changed them (a
   * response, a todo update, a new request measured): absent fields are absent from the task view too.
   */
  z.object({ type: z.literal('taskProgress'), taskId: z.string(), progress: taskProgressSchema }),
  /** Live output of a running command of the task `taskId` (the host names it; a webview showing another task ignores it). */
  z.object({ type: z.literal('commandOutput'), taskId: z.optional(z.string()), callId: z.string(), text: z.string() }),
  /** The panel's task list after a task's status or cost changed (a task not shown included), without the rest of the state. */
  z.object({ type: z.literal('liveTasks'), tasks: z.array(liveTaskSchema) }),
  /**
   * The MCP part of the state after the window's MCP hub changed (status, lists, config), so a
   * connecting server does not resend the whole task. Coalesced; while the webview is hidden the
   * next snapshot carries it instead. Changes a request caused arrive before its reply.
   */
  z.object({ type: z.literal('mcpState'), state: mcpPanelStateSchema }),
  /**
   * Text for the Task box (an editor selection as a fenced block): appended to the draft, which
   * gets the focus. Sent once, to the first chat webview that is ready and visible.
   */
  z.object({ type: z.literal('insertText'), text: z.string() }),
  z.object({ type: z.literal('reply'), id: z.string(), ok: z.literal(true) }),
  z.object({ type: z.literal('reply'), id: z.string(), ok: z.literal(false), error: z.string() }),
]);
export type HostMessage = DeepReadonly<z.infer<typeof hostMessageSchema>>;
