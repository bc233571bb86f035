// Facts a tool call produced or asked about, logged in the task's events beside the text written for
// the model. The panel and the CLI render from these fields and never parse that text. The schemas
// are the one definition: the types below are inferred from them, and the webview validates with them.
import * as z from './zod-config.js';
import type { DeepReadonly } from './deep-readonly.js';

/** How a command's run ended. */
const commandEndSchema = z.discriminatedUnion('kind', [
  /** It exited by itself: its exit code, or the signal that ended it (exitCode null). */
  z.object({ kind: z.literal('exited'), exitCode: z.nullable(z.number()), signal: z.optional(z.string()) }),
  /** It ran past its timeout and was killed with everything it started. */
  z.object({ kind: z.literal('timed_out'), timeoutSeconds: z.number() }),
  /** It was left running in the background (session `sessionId`): it went quiet, or the user let it go on. */
  z.object({ kind: z.literal('backgrounded'), sessionId: z.number(), by: z.enum(['quiet', 'user']) }),
]);
export type CommandEnd = DeepReadonly<z.infer<typeof commandEndSchema>>;

/** execute_command. */
const commandFactsSchema = z.object({
  command: z.string(),
  end: commandEndSchema,
  /** What it printed, capped exactly as the model got it (head and tail kept, a note where the middle was cut). */
  output: z.string(),
  /** The middle of the output was cut to fit the cap. */
  truncated: z.boolean(),
  /** Paths the command named that .smithignore excludes (the user let it run anyway). */
  ignoredPaths: z.optional(z.array(z.string())),
  /** The command was not run: the user applied its preview, which wrote these paths and deleted these (docs/command-preview.md). */
  appliedPreview: z.optional(z.object({ written: z.array(z.string()), deleted: z.array(z.string()) })),
});
export type CommandFacts = DeepReadonly<z.infer<typeof commandFactsSchema>>;

/** write_to_file, replace_in_file, new_rule: the change that landed (no file contents). */
const editFactsSchema = z.object({
  /** Workspace-relative (absolute outside the workspace). */
  path: z.string(),
  added: z.number(),
  removed: z.number(),
  /** The file did not exist before. */
  created: z.boolean(),
  /** SHA-256 (hex) of the file's bytes before the edit; absent when it was created. */
  sha256Before: z.optional(z.string()),
  /** SHA-256 (hex) of the file's bytes as written (equal to before when nothing changed). */
  sha256After: z.string(),
  /** The user changed the proposal in the diff editor before it was saved. */
  userEdited: z.optional(z.boolean()),
  /**
   * The file had changed on disk since the model's read, and the edit was merged into those
   * changes: how many places both changed, and which side the user kept there.
   */
  merged: z.optional(z.object({ conflicts: z.number(), resolution: z.optional(z.enum(['user', 'model'])) })),
});
export type EditFacts = DeepReadonly<z.infer<typeof editFactsSchema>>;

/** read_file. */
const readFactsSchema = z.object({
  path: z.string(),
  /** Lines shown, 1-based and inclusive; 0 and 0 for an empty file. */
  firstLine: z.number(),
  lastLine: z.number(),
  totalLines: z.number(),
  /** Less than the requested range came back (the line or character cap). */
  truncated: z.boolean(),
});
export type ReadFacts = DeepReadonly<z.infer<typeof readFactsSchema>>;

/** list_files. */
const listFactsSchema = z.object({
  path: z.string(),
  recursive: z.boolean(),
  entries: z.number(),
  /** The listing stopped at its limit. */
  truncated: z.boolean(),
});
export type ListFacts = DeepReadonly<z.infer<typeof listFactsSchema>>;

/** search_files and search_mcp_tools. */
const searchFactsSchema = z.object({
  /** The folder or file searched; absent for a search of MCP tools. */
  path: z.optional(z.string()),
  /** The regex (search_files) or the words (search_mcp_tools). */
  query: z.string(),
  /** Files (for MCP tools: servers) with a match shown. */
  files: z.number(),
  matches: z.number(),
  /** More matched than are shown. */
  truncated: z.boolean(),
});
export type SearchFacts = DeepReadonly<z.infer<typeof searchFactsSchema>>;

/** list_code_definition_names. */
const outlineFactsSchema = z.object({
  path: z.string(),
  /** Source files outlined. */
  files: z.number(),
  definitions: z.number(),
  /** Files left out: over the per-call limit, too large, unreadable. */
  skipped: z.number(),
});

/** use_mcp_tool, access_mcp_resource and the MCP discovery tools. */
const mcpFactsSchema = z.object({
  /** Absent when no one server was asked (list_mcp_servers and search_mcp_tools without one). */
  server: z.optional(z.string()),
  tool: z.optional(z.string()),
  uri: z.optional(z.string()),
  /** The server answered the call with an error result. */
  isError: z.boolean(),
  /** The call's `structuredContent`, as indented JSON (capped). */
  structured: z.optional(z.string()),
  /** The `resource_link` blocks of the result. */
  links: z.optional(
    z.array(z.object({ uri: z.string(), name: z.optional(z.string()), mimeType: z.optional(z.string()), description: z.optional(z.string()) })),
  ),
});

/** ask_followup_question and plan_mode_respond. */
const questionFactsSchema = z.object({
  /** False when no user could answer (a headless run). */
  answered: z.boolean(),
  /** The answers ask_followup_question offered, as the tool read its `options` (absent: none). */
  options: z.optional(z.array(z.string())),
});

/** use_subagents: one child task, how it ended and what it spent (counted in the parent's cost). */
const subagentFactsSchema = z.object({
  taskId: z.string(),
  prompt: z.string(),
  /** The custom agent it ran as (an agent file's name), or the mode it worked in; neither: a research sub-agent. */
  agent: z.optional(z.string()),
  mode: z.optional(z.string()),
  /** The paths it declared and alone could edit. */
  paths: z.optional(z.array(z.string())),
  status: z.enum(['completed', 'failed', 'cancelled']),
  /** Its report (completed) or why it has none. */
  report: z.optional(z.string()),
  error: z.optional(z.string()),
  requests: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  /** US dollars; absent when its model's prices are unknown. */
  cost: z.optional(z.number()),
});
export type SubagentFacts = DeepReadonly<z.infer<typeof subagentFactsSchema>>;

/** web_fetch. */
const fetchFactsSchema = z.object({
  url: z.string(),
  /** Characters of the page's Markdown (before the cap). */
  chars: z.number(),
  /** The Markdown was cut to the cap, or only part of a page too large was read. */
  truncated: z.boolean(),
});
export type FetchFacts = DeepReadonly<z.infer<typeof fetchFactsSchema>>;

/** web_search: what was asked of which backend and the results shown (titles and URLs; the snippets are in the output). */
const webSearchFactsSchema = z.object({
  query: z.string(),
  /** The backend as people read it ("Brave Search"). */
  backend: z.string(),
  results: z.array(z.object({ title: z.string(), url: z.string() })),
  /** Results left out: outside the call's domains, or of hosts the user's deny list or rules keep out. */
  dropped: z.number(),
});
export type WebSearchFacts = DeepReadonly<z.infer<typeof webSearchFactsSchema>>;

/** How much a console line matters: the page's console method, or `error` for an uncaught error. */
const consoleLevelSchema = z.enum(['error', 'warn', 'info', 'log', 'debug']);
export type ConsoleLevel = z.infer<typeof consoleLevelSchema>;

/** One line the page's console (or the browser, about the page) logged. */
const consoleLineSchema = z.object({
  level: consoleLevelSchema,
  /** The line as the model read it: "warning: low disk (app.js:3)", "uncaught TypeError: … (app.js:11)". */
  text: z.string(),
});
export type ConsoleLine = DeepReadonly<z.infer<typeof consoleLineSchema>>;

/** browser_action: what was done and what the page said (the screenshot is the result's image). */
const browserFactsSchema = z.object({
  action: z.string(),
  /** The page's address after the action; absent once the browser is closed. */
  url: z.optional(z.string()),
  /** Console messages and uncaught errors since the previous action, capped. */
  console: z.array(consoleLineSchema),
  /** A screenshot was taken (it reaches the model only when the model takes images). */
  screenshot: z.boolean(),
});
export type BrowserFacts = DeepReadonly<z.infer<typeof browserFactsSchema>>;

/**
 * What a tool result records, one optional part per kind of tool (a tool fills the parts that
 * apply to it). Results logged before these parts existed have none: renderers then show the
 * output text alone.
 */
export const toolFactsSchema = z.object({
  command: z.optional(commandFactsSchema),
  edit: z.optional(editFactsSchema),
  read: z.optional(readFactsSchema),
  list: z.optional(listFactsSchema),
  search: z.optional(searchFactsSchema),
  outline: z.optional(outlineFactsSchema),
  mcp: z.optional(mcpFactsSchema),
  question: z.optional(questionFactsSchema),
  subagents: z.optional(z.array(subagentFactsSchema)),
  fetch: z.optional(fetchFactsSchema),
  webSearch: z.optional(webSearchFactsSchema),
  browser: z.optional(browserFactsSchema),
});
export type ToolFacts = DeepReadonly<z.infer<typeof toolFactsSchema>>;

/** Lines added and removed by an edit. */
const lineStatsSchema = z.object({ added: z.number(), removed: z.number() });
export type LineStats = DeepReadonly<z.infer<typeof lineStatsSchema>>;

/**
 * An approval request exactly as the user is shown it: logged in `approval_asked`, it is what the
 * panel's approval bar and the CLI's prompt render.
 */
export const shownApprovalSchema = z.object({
  callId: z.string(),
  tool: z.string(),
  /** The call's parameters (always logged by the engine; optional so a host may ask without them). */
  params: z.optional(z.record(z.string(), z.string())),
  /** One line the user reads first, e.g. "Edit src/app.ts (+3 -1)". */
  summary: z.string(),
  /** Workspace-relative (or absolute, when outside) path the call touches. */
  path: z.optional(z.string()),
  /** A unified diff of a proposed edit. */
  diff: z.optional(z.string()),
  /** Lines the proposed edit adds and removes. */
  stats: z.optional(lineStatsSchema),
  command: z.optional(z.string()),
  /** Why the user is asked although the policy might have approved (outside the workspace, an ignored path). */
  reason: z.optional(z.string()),
  /** The narrowest permission rules that would allow this call again ("always allow"); absent when none could. */
  allowRules: z.optional(z.array(z.string())),
  /**
   * The call is one of several in one response (native tool calling): its place (1-based), and
   * every call of the response in order, so they can be reviewed as one list and approved together.
   */
  batch: z.optional(
    z.object({
      id: z.string(),
      index: z.number().check(z.int(), z.positive()),
      calls: z.array(z.object({ tool: z.string(), params: z.record(z.string(), z.string()) })),
    }),
  ),
  /** The sub-agent whose call this is (it asks through its parent's approvals): its place in the call, task id, and agent or mode. */
  subagent: z.optional(z.object({ index: z.number().check(z.int(), z.nonnegative()), taskId: z.string(), name: z.optional(z.string()) })),
});
export type ShownApproval = DeepReadonly<z.infer<typeof shownApprovalSchema>>;
