import type { SubagentFacts } from '../../shared/tool-details.js';
import { builtInSpec, mistake, type ToolContext, type ToolHandler } from '../tool-kit/tool-spec.js';

/** Sub-agents one call may start (they run a few at a time). */
const MAX_SUBAGENT_PROMPTS = 10;

/** Characters of one report that reach the parent's context: a report is meant to be concise. */
const MAX_REPORT_CHARS = 8_000;

/** One sub-agent a call asks for: its task, and optionally the agent or mode it runs as and the paths it may edit. */
export interface SubagentRequest {
  readonly prompt: string;
  /** A custom agent's name (.claude/agents, .smith/agents). */
  readonly agent?: string;
  /** A mode (persona with its tools) the sub-agent works in. */
  readonly mode?: string;
  /** Workspace-relative paths or globs the sub-agent may edit; required when it can edit. */
  readonly paths?: readonly string[];
}

/** Starts the sub-agents of a call and returns what each reported, or what is wrong with the call (see subagent-runner.ts). */
type StartSubagents = (requests: readonly SubagentRequest[], context: ToolContext) => Promise<SubagentFacts[] | string>;

/** What the tool's description lists besides its own text: the custom agents and modes a sub-agent can run as. */
interface Delegates {
  maxParallel(): number;
  /** One line per agent or mode ("- reviewer: Reviews diffs (tools: Read, Grep)"); empty when there are none. */
  listing(): string;
}

/**
 * use_subagents: tasks handed to child tasks that run in parallel, each with its own context
 * window; research ones read only, others run as a custom agent or a mode and may edit their
 * declared paths. Only their concise reports enter this task's context.
 */
export function createUseSubagentsTool(start: StartSubagents, delegates: Delegates): ToolHandler {
  return {
    spec: builtInSpec({
      name: 'use_subagents',
      description: `Start sub-agents that work in parallel (${delegates.maxParallel()} at a time, at most ${MAX_SUBAGENT_PROMPTS} per call), each a separate agent with its own context window; only their concise reports come back to you. A plain question gets a research sub-agent that can read, list and search files (not edit them or run commands): use it for independent questions whose investigation would fill your context with files you do not need afterwards. An object {"prompt": …, "agent": name} runs a custom agent, {"prompt": …, "mode": slug} a mode, with their tools; one that may edit must declare "paths" (workspace-relative paths or globs): it can edit nothing else, and sub-agents whose paths could overlap (or that run commands) run one after another. Each prompt must stand on its own: sub-agents do not see this conversation.${delegates.listing()}`,
      params: [
        {
          name: 'prompts',
          required: true,
          description:
            'A JSON array: each item a self-contained question (a string), or an object {"prompt": string, "agent"?: string, "mode"?: string, "paths"?: string[]}.',
        },
      ],
      example:
        '<use_subagents>\n<prompts>["Find where the HTTP client is configured and list its retry settings.", {"prompt": "Add input validation to src/auth/login.ts and its test.", "mode": "code", "paths": ["src/auth/**", "test/auth/**"]}]</prompts>\n</use_subagents>',
    }),
    async execute(params, context) {
      const requests = parseRequests(params.prompts ?? '');
      if (typeof requests === 'string') return mistake(requests);
      const answer = await context.approve({
        summary: `Start ${requests.length} sub-agent${requests.length === 1 ? '' : 's'}: ${requests.map((r) => `${(r.agent ?? r.mode) ? `${r.agent ?? r.mode}: ` : ''}${oneLine(r.prompt)}`).join(' | ')}`,
      });
      if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };
      const children = await start(requests, context);
      if (typeof children === 'string') return mistake(`use_subagents: ${children}`);
      return { kind: 'result', output: children.map((child, index) => reportText(index, child)).join('\n\n'), details: { subagents: children } };
    },
  };
}

const FORMAT =
  'prompts must be a JSON array of questions (strings) or objects {"prompt": "…", "agent": "name" or "mode": "slug", "paths": ["src/x/**"]}, e.g. ["Find where X is configured.", {"prompt": "Fix Y in src/y.ts", "mode": "code", "paths": ["src/y.ts"]}]';

/** The sub-agents a call asks for, or what is wrong with them. */
function parseRequests(raw: string): SubagentRequest[] | string {
  let value: unknown;
  try {
    value = JSON.parse(raw.trim());
  } catch {
    return `use_subagents: ${FORMAT}.`;
  }
  if (!Array.isArray(value) || value.length === 0) return `use_subagents: ${FORMAT}, with at least one item.`;
  if (value.length > MAX_SUBAGENT_PROMPTS)
    return `use_subagents: at most ${MAX_SUBAGENT_PROMPTS} sub-agents per call; got ${value.length}. Start the most important ones first.`;
  const requests: SubagentRequest[] = [];
  for (const [index, item] of value.entries()) {
    const request = parseRequest(item);
    if (typeof request === 'string') return `use_subagents: item ${index + 1}: ${request}. ${FORMAT}.`;
    requests.push(request);
  }
  return requests;
}

function parseRequest(item: unknown): SubagentRequest | string {
  if (typeof item === 'string') return item.trim() === '' ? 'the question is empty' : { prompt: item };
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'not a string or an object';
  const { prompt, agent, mode, paths, ...rest } = item as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) return `unknown field${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}`;
  if (typeof prompt !== 'string' || prompt.trim() === '') return '"prompt" must be a non-empty string';
  if (agent !== undefined && (typeof agent !== 'string' || agent.trim() === '')) return '"agent" must be an agent\'s name';
  if (mode !== undefined && (typeof mode !== 'string' || mode.trim() === '')) return '"mode" must be a mode\'s slug';
  if (agent !== undefined && mode !== undefined) return 'give "agent" or "mode", not both';
  if (paths !== undefined && (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string'))) return '"paths" must be an array of strings';
  return {
    prompt,
    ...(typeof agent === 'string' ? { agent: agent.trim() } : {}),
    ...(typeof mode === 'string' ? { mode: mode.trim() } : {}),
    ...(Array.isArray(paths) ? { paths: paths as string[] } : {}),
  };
}

function reportText(index: number, child: SubagentFacts): string {
  const who = child.agent ?? child.mode;
  const head = `Sub-agent ${index + 1}${who ? ` [${who}]` : ''} (${child.prompt.length > 100 ? `${child.prompt.slice(0, 99)}…` : child.prompt})`;
  if (child.status !== 'completed') return `${head} ${child.status === 'cancelled' ? 'was stopped' : 'failed'}: ${child.error ?? 'no report'}`;
  const report = child.report ?? '';
  const cut = report.length > MAX_REPORT_CHARS ? `${report.slice(0, MAX_REPORT_CHARS)}\n[Report cut at ${MAX_REPORT_CHARS} characters.]` : report;
  return `${head} reported:\n${cut}`;
}

function oneLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
