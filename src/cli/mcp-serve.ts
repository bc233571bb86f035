import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from '../shared/zod-config.js';
import type { ProviderConfig } from '../core/providers/types.js';
import { listCodeDefinitionNamesTool } from '../core/tools/list-code-definition-names.js';
import { FileStampRecord } from '../core/tool-kit/file-stamping.js';
import { listFilesTool } from '../core/tools/list-files.js';
import { readFileTool } from '../core/tools/read-file.js';
import { replaceInFileTool } from '../core/tools/replace-in-file.js';
import { searchFilesTool } from '../core/tools/search-files.js';
import type { ToolContext, ToolHandler, ToolOutcome, ToolSpec } from '../core/tool-kit/tool-spec.js';
import { writeToFileTool } from '../core/tools/write-to-file.js';
import type { IgnorePolicy } from '../core/workspace/ignore-policy.js';
import { loadSmithIgnore } from '../core/workspace/smith-ignore.js';
import { mcpSdk } from '../core/mcp/mcp-sdk-loader.js';
import { createMcpServeHost } from './mcp-serve-host.js';
import { runTaskForMcp } from './mcp-serve-task.js';

/** Pause between the last progress notification and the result (see below). */
const PROGRESS_SETTLE_MS = 25;

/** What `smith mcp-serve` runs with. */
interface McpServeOptions {
  readonly cwd: string;
  readonly storageDir: string;
  /** The model for run_task; without it run_task answers with an error saying how to configure one. */
  readonly providerConfig?: ProviderConfig;
  readonly maxIterations?: number;
  readonly version?: string;
  /** The protocol streams (default: process stdin/stdout). */
  readonly stdin?: NodeJS.ReadableStream;
  readonly stdout?: NodeJS.WritableStream;
}

/** The workspace tools `smith mcp-serve` exposes, as the real handlers the agent itself uses. */
const MCP_SERVE_TOOLS: readonly ToolHandler[] = [readFileTool, listFilesTool, searchFilesTool, listCodeDefinitionNamesTool, replaceInFileTool, writeToFileTool];

/** Runs Smith as an MCP server on stdio until the client disconnects. */
export async function runMcpServe(options: McpServeOptions): Promise<void> {
  const host = createMcpServeHost();
  const ignore = await loadSmithIgnore(options.cwd);
  const { McpServer, StdioServerTransport } = mcpSdk();
  const server = new McpServer(
    { name: 'smith', version: options.version ?? '0.0.0' },
    {
      instructions: `Smith's workspace tools for ${options.cwd}. Paths are relative to it; paths outside it and files fenced off by .smithignore are refused. run_task runs a whole coding task with Smith's own agent.`,
    },
  );
  let calls = 0;
  // What this session's calls read and wrote: an edit of a file changed since then is refused.
  const stamps = new FileStampRecord();
  for (const tool of MCP_SERVE_TOOLS) {
    server.registerTool(
      tool.spec.name,
      { description: tool.spec.description, inputSchema: inputShape(tool.spec), annotations: { readOnlyHint: tool.spec.group === 'read' } },
      async (args, extra) => {
        const context = workspaceContext(options.cwd, ignore, host, extra.signal, `mcp-${++calls}`, stamps);
        const params = Object.fromEntries(Object.entries(args).filter((e): e is [string, string] => typeof e[1] === 'string'));
        try {
          const outcome = await tool.execute(params, context);
          stamps.observe(outcome);
          return toCallToolResult(outcome);
        } catch (error) {
          return { content: [{ type: 'text', text: `${tool.spec.name} failed: ${(error as Error).message}` }], isError: true };
        }
      },
    );
  }
  server.registerTool(
    'run_task',
    {
      description:
        "Run a whole coding task with Smith's agent in this workspace (it reads, edits and runs commands inside the workspace without asking) and return its final result.",
      inputSchema: { task: z.string().check(z.minLength(1)).register(z.globalRegistry, { description: 'What Smith should do, in plain language.' }) },
    },
    async ({ task }, extra) => {
      const progressToken = extra._meta?.progressToken;
      let step = 0;
      // Progress must be written before the result: the client drops progress for a finished request.
      let progressSent = Promise.resolve();
      const answer = await runTaskForMcp({
        cwd: options.cwd,
        storageDir: options.storageDir,
        ...(options.providerConfig ? { providerConfig: options.providerConfig } : {}),
        task,
        maxIterations: options.maxIterations ?? 25,
        signal: extra.signal,
        onStep: (message) => {
          if (progressToken === undefined) return;
          const params = { progressToken, progress: ++step, message };
          progressSent = progressSent.then(() => extra.sendNotification({ method: 'notifications/progress', params }).catch(() => {}));
        },
      });
      await progressSent;
      // The SDK client handles notifications a microtask late but responses at once, so a result
      // read in the same chunk as the last progress note would drop it; a short pause keeps them apart.
      if (step > 0) await new Promise((resolve) => setTimeout(resolve, PROGRESS_SETTLE_MS));
      return { content: [{ type: 'text', text: answer.text }], ...(answer.isError ? { isError: true } : {}) };
    },
  );

  const stdin = (options.stdin ?? process.stdin) as NodeJS.ReadStream;
  const stdout = (options.stdout ?? process.stdout) as NodeJS.WriteStream;
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  // The SDK's stdio transport does not notice the client going away; stdin ending is that signal.
  const onEnd = () => void server.close();
  stdin.once('end', onEnd);
  await server.connect(transport);
  await closed;
  stdin.off('end', onEnd);
}

/** A zod shape for a tool's string parameters (the XML tools take strings only). */
function inputShape(spec: ToolSpec): Record<string, z.ZodMiniType<string | undefined>> {
  return Object.fromEntries(
    spec.params.map((p) => [
      p.name,
      p.required
        ? z.string().register(z.globalRegistry, { description: p.description })
        : z.optional(z.string()).register(z.globalRegistry, { description: p.description }),
    ]),
  );
}

/** Approvals are automatic inside the workspace and refused outside it: nobody is there to ask. */
function workspaceContext(
  cwd: string,
  ignore: IgnorePolicy,
  host: ToolContext['host'],
  signal: AbortSignal,
  callId: string,
  stamps: FileStampRecord,
): ToolContext {
  return {
    host,
    cwd,
    signal,
    // Calls from an MCP client belong to no task of Smith's.
    taskId: 'mcp-serve',
    callId,
    ignore,
    knownFile: stamps.get,
    progress: () => {},
    approve: async (_request, facts = {}) =>
      facts.outsideWorkspace
        ? { approved: false, feedback: `The path is outside the workspace (${cwd}); smith mcp-serve only works inside it.` }
        : { approved: true },
  };
}

function toCallToolResult(outcome: ToolOutcome): CallToolResult {
  const text = (value: string, isError = false): CallToolResult => ({ content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) });
  switch (outcome.kind) {
    case 'result':
      return text(outcome.output);
    case 'error':
      return text(outcome.error, true);
    case 'rejected':
      return text(`Refused: ${outcome.feedback ?? 'not approved'}`, true);
    case 'completed':
      return text(outcome.result);
    case 'condensed':
      return text(outcome.summary);
    case 'new_task':
      return text(outcome.context);
  }
}
