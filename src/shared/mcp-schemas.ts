// The MCP servers as the panel shows them. Part of the protocol (protocol.ts re-exports them).
import * as z from './zod-config.js';
import type { DeepReadonly } from './deep-readonly.js';
import { elicitationFieldSchema } from './elicitation-form.js';

/**
 * Where an MCP server stands: `connecting` may be a reconnect after a crash (see `reconnect`) or a
 * sign-in under way (see `auth`); `needs-auth` waits for the user to sign in.
 */
const mcpServerStatusSchema = z.enum(['connecting', 'connected', 'error', 'disabled', 'needs-auth']);

/** One tool of an MCP server as the panel lists it (no input schema: snapshots stay small). */
const mcpToolViewSchema = z.object({
  name: z.string(),
  /** The first paragraph of the tool's description, capped. */
  description: z.string(),
  /** Listed in the server's `autoApprove`: calls run without asking. */
  autoApproved: z.boolean(),
});
export type McpToolView = DeepReadonly<z.infer<typeof mcpToolViewSchema>>;

/** A resource with a fixed URI, and a family of resources addressed by a URI template. */
const mcpResourceViewSchema = z.object({ uri: z.string(), name: z.string() });
const mcpResourceTemplateViewSchema = z.object({ uriTemplate: z.string(), name: z.string() });

/** One configured MCP server (valid or not) with what it offers. */
const mcpServerViewSchema = z.object({
  name: z.string(),
  status: mcpServerStatusSchema,
  /** Why it is in error, or the last failure while it reconnects; may span lines. */
  error: z.optional(z.string()),
  /** The config file that defines it; edits from the panel go there. */
  source: z.string(),
  /** Which of the config files that is. */
  scope: z.enum(['global', 'workspace', 'other']),
  disabled: z.boolean(),
  /** stdio, streamableHttp or sse; undefined when the entry is invalid. */
  transport: z.optional(z.string()),
  tools: z.array(mcpToolViewSchema),
  resources: z.array(mcpResourceViewSchema),
  resourceTemplates: z.array(mcpResourceTemplateViewSchema),
  /** Set while waiting to reconnect after an unexpected exit. */
  reconnect: z.optional(z.object({ attempt: z.number(), maxAttempts: z.number() })),
  /** OAuth: a sign-in under way (with the page it opened), needed, or done (the server can be signed out of). */
  auth: z.optional(z.object({ state: z.enum(['signing-in', 'needs-sign-in', 'signed-in']), url: z.optional(z.string()) })),
});
export type McpServerView = DeepReadonly<z.infer<typeof mcpServerViewSchema>>;

/** Something wrong in an MCP config file: the whole file (no server) or one entry (and field). */
const mcpConfigProblemViewSchema = z.object({ file: z.string(), server: z.optional(z.string()), field: z.optional(z.string()), message: z.string() });
export type McpConfigProblemView = DeepReadonly<z.infer<typeof mcpConfigProblemViewSchema>>;

/** A server's form (`elicitation/create`) waiting for the user's answer. */
const mcpElicitationViewSchema = z.object({
  id: z.string(),
  server: z.string(),
  message: z.string(),
  fields: z.array(elicitationFieldSchema),
  /** When it is cancelled unanswered (ms since the epoch). */
  expiresAt: z.number(),
});
export type McpElicitationView = DeepReadonly<z.infer<typeof mcpElicitationViewSchema>>;

/** An environment variable or header a registry server needs. */
const registryInputViewSchema = z.object({
  name: z.string(),
  kind: z.enum(['env', 'header']),
  required: z.boolean(),
  /** Kept in secret storage; the config file refers to it as ${NAME}. */
  secret: z.boolean(),
  description: z.optional(z.string()),
  default: z.optional(z.string()),
});

/** The last search of the MCP Registry, as the "Browse servers" part of the MCP view shows it. */
const mcpRegistryViewSchema = z.object({
  query: z.string(),
  registry: z.string(),
  servers: z.array(
    z.object({
      name: z.string(),
      title: z.optional(z.string()),
      description: z.optional(z.string()),
      version: z.optional(z.string()),
      status: z.optional(z.string()),
      /** The repository or website. */
      source: z.optional(z.string()),
      /** Each package and remote, in words. */
      transports: z.array(z.string()),
      /** How an install runs it ("npm @x/y@1.0.0 (stdio)"); absent when Smith cannot install it (see `problem`). */
      installs: z.optional(z.string()),
      inputs: z.array(registryInputViewSchema),
      problem: z.optional(z.string()),
    }),
  ),
  nextCursor: z.optional(z.string()),
  /** Entries of the answer that did not have the documented shape. */
  skipped: z.number(),
  error: z.optional(z.string()),
});
export type McpRegistryView = DeepReadonly<z.infer<typeof mcpRegistryViewSchema>>;

/** The MCP part of the panel state: every server of the window's hub and the config problems. */
export const mcpPanelStateSchema = z.object({
  servers: z.array(mcpServerViewSchema),
  /** Servers' forms waiting for an answer, oldest first (absent: none). */
  elicitations: z.optional(z.array(mcpElicitationViewSchema)),
  /** The last registry search (absent before one). */
  registry: z.optional(mcpRegistryViewSchema),
  problems: z.array(mcpConfigProblemViewSchema),
  /** The config files the servers come from; `workspace` is absent without an open folder. */
  configFiles: z.object({ global: z.string(), workspace: z.optional(z.string()) }),
});
export type McpPanelState = DeepReadonly<z.infer<typeof mcpPanelStateSchema>>;
