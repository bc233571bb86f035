// The chat's message list as the panel and the CLI render it; derived from the task log. The
// schemas are the one definition: the types are inferred from them.
import * as z from './zod-config.js';
import type { DeepReadonly } from './deep-readonly.js';
import { toolFactsSchema } from './tool-details.js';

/** What an @-mention attached to a message, shown as a chip. */
const uiAttachmentSchema = z.object({ kind: z.string(), ref: z.string(), truncated: z.boolean() });
export type UiAttachment = DeepReadonly<z.infer<typeof uiAttachmentSchema>>;

/** Where a tool call stands. */
const toolStatusSchema = z.enum(['running', 'awaiting_approval', 'rejected', 'done', 'failed', 'interrupted']);
export type ToolStatus = z.infer<typeof toolStatusSchema>;

/** A failed model request about to be made again ("retrying in 4 s, attempt 2 of 3"). */
const uiRetryMessageSchema = z.object({
  kind: z.literal('retry'),
  id: z.string(),
  /** 1 for the first retry. */
  attempt: z.number(),
  maxRetries: z.number(),
  delayMs: z.number(),
  reason: z.string(),
  ts: z.number(),
});
export type UiRetryMessage = DeepReadonly<z.infer<typeof uiRetryMessageSchema>>;

/** One card per tool call. */
const uiToolMessageSchema = z.object({
  kind: z.literal('tool'),
  id: z.string(),
  callId: z.string(),
  tool: z.string(),
  params: z.record(z.string(), z.string()),
  status: toolStatusSchema,
  output: z.optional(z.string()),
  error: z.optional(z.string()),
  feedback: z.optional(z.string()),
  /** Who let the call run: the user in the approval bar, or the auto-approve settings or an allow rule (`rule` names it). */
  approvedBy: z.optional(z.enum(['user', 'auto'])),
  rule: z.optional(z.string()),
  /** Facts of the result the card renders (exit code, lines changed, counts); absent for results logged before they were recorded. */
  details: z.optional(toolFactsSchema),
  /** use_subagents: the sub-agents started so far (their reports come with `details`). */
  subagents: z.optional(
    z.array(z.object({ index: z.number(), taskId: z.string(), prompt: z.string(), name: z.optional(z.string()), paths: z.optional(z.array(z.string())) })),
  ),
  /** browser_action: the page after the action, as a data: URL. Only the newest screenshot of the chat is kept, so snapshots stay small. */
  screenshot: z.optional(z.string()),
  ts: z.number(),
});
export type UiToolMessage = DeepReadonly<z.infer<typeof uiToolMessageSchema>>;

const said = {
  id: z.string(),
  /** The message's position in the task log: what "edit and run again" names. */
  seq: z.number(),
  text: z.string(),
  attached: z.optional(z.array(uiAttachmentSchema)),
  ts: z.number(),
};

/** A checkpoint of the workspace after a step that changed it (checkpoint "0": as the task found it). */
const uiCheckpointMessageSchema = z.object({
  kind: z.literal('checkpoint'),
  id: z.string(),
  checkpointId: z.string(),
  /** Paths changed since the previous checkpoint (the first few). */
  changed: z.array(z.string()),
  changedCount: z.number(),
  /** Changed files the checkpoint does not hold (too large, unreadable). */
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  ts: z.number(),
});
export type UiCheckpointMessage = DeepReadonly<z.infer<typeof uiCheckpointMessageSchema>>;

export const uiMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('task'), ...said }),
  z.object({ kind: z.literal('user'), ...said }),
  z.object({ kind: z.literal('assistant'), id: z.string(), text: z.string(), reasoning: z.string(), ts: z.number() }),
  uiToolMessageSchema,
  /** `detail`: more to read on request (a condensed history's summary). */
  z.object({ kind: z.literal('notice'), id: z.string(), text: z.string(), detail: z.optional(z.string()), ts: z.number() }),
  z.object({ kind: z.literal('error'), id: z.string(), text: z.string(), ts: z.number() }),
  uiRetryMessageSchema,
  z.object({ kind: z.literal('completion'), id: z.string(), result: z.string(), command: z.optional(z.string()), ts: z.number() }),
  uiCheckpointMessageSchema,
]);
export type UiMessage = DeepReadonly<z.infer<typeof uiMessageSchema>>;

/** Token totals of a task. */
export const uiUsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  /** US dollars, when the models' prices are known. */
  cost: z.optional(z.number()),
});
export type UiUsage = DeepReadonly<z.infer<typeof uiUsageSchema>>;
