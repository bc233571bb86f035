// What one sub-agent of a use_subagents call runs with: its tools, persona, model, declared paths
// and how it is scheduled. Every request of a call is planned before any starts, so a call that
// names an unknown agent or forgets its paths starts nothing.
import { groupsOffer, toolEntry, type ToolName } from '../../shared/tool-catalogue.js';
import type { ApiProvider } from '../providers/types.js';
import type { Mode } from '../modes/mode.js';
import { grantedGroups } from '../modes/mode.js';
import type { ToolHandler } from '../tool-kit/tool-spec.js';
import type { ToolRegistry } from '../tool-kit/tool-registry.js';
import type { SubagentRequest } from '../tools/use-subagents.js';
import { declarationProblem } from '../permissions/edit-scope.js';
import type { AgentDefinition } from './agent-files.js';
import { agentProvider } from './agent-model.js';
import { mcpToolAllowed } from './agent-tools.js';

/** One planned sub-agent. */
export interface SubagentPlan {
  readonly request: SubagentRequest;
  /** "sub-agent 2 (reviewer)": how messages name it. */
  readonly owner: string;
  /** The agent or mode it runs as. */
  readonly name?: string;
  readonly tools: readonly ToolHandler[];
  /** The persona its prompt opens with: a mode, or the agent's own prompt as one. */
  readonly mode?: Mode;
  readonly provider: ApiProvider;
  /** What it may write: nothing (read-only), its declared paths, or everything (it runs commands, which may write anywhere). */
  readonly writes: 'nothing' | readonly string[] | 'everything';
  /** Said in its progress (a model it could not get). */
  readonly note?: string;
}

/** What planning needs from the parent. */
export interface PlanInputs {
  readonly tools: ToolRegistry;
  /** The model of the parent's Plan or Act. */
  readonly provider: ApiProvider;
  readonly agents: readonly AgentDefinition[];
  readonly modes: readonly Mode[];
  /** A provider for another model id on the main provider (agents' `model:`). */
  readonly withModel?: (modelId: string) => ApiProvider;
}

/** Plans every request of a call, or says what is wrong with the first one that cannot run. */
export function planSubagents(requests: readonly SubagentRequest[], inputs: PlanInputs): SubagentPlan[] | string {
  const plans: SubagentPlan[] = [];
  for (const [index, request] of requests.entries()) {
    const plan = planOne(index, request, inputs);
    if (typeof plan === 'string') return `item ${index + 1}: ${plan}`;
    plans.push(plan);
  }
  return plans;
}

function planOne(index: number, request: SubagentRequest, inputs: PlanInputs): SubagentPlan | string {
  const label = `sub-agent ${index + 1}`;
  if (request.agent !== undefined) {
    const agent = inputs.agents.find((a) => a.name === request.agent);
    if (!agent)
      return `there is no agent "${request.agent}"; ${inputs.agents.length > 0 ? `the agents are ${inputs.agents.map((a) => a.name).join(', ')}` : 'no custom agents are defined'}`;
    const tools = agentHandlers(agent, inputs.tools);
    const model = modelFor(agent, inputs);
    const mode: Mode = {
      slug: `agent-${agent.name}`,
      name: agent.name,
      roleDefinition: agent.prompt,
      groups: ['read', 'edit', 'command', 'mcp', 'browser', 'interaction'],
      source: agent.source,
    };
    return finish({
      request,
      owner: `${label} (${agent.name})`,
      name: agent.name,
      tools,
      mode,
      provider: model.provider,
      ...(model.note ? { note: model.note } : {}),
    });
  }
  if (request.mode !== undefined) {
    const mode = inputs.modes.find((s) => s.slug === request.mode);
    if (!mode) return `there is no mode "${request.mode}"; the modes are ${inputs.modes.map((s) => s.slug).join(', ')}`;
    const groups = grantedGroups(mode);
    const tools = inputs.tools
      .specs()
      .filter((spec) => subagentsMayHave(spec.name) && groupsOffer(groups, spec.name, spec.group))
      .map((spec) => inputs.tools.get(spec.name)!);
    return finish({ request, owner: `${label} (${mode.slug})`, name: mode.slug, tools, mode, provider: inputs.provider });
  }
  const tools = inputs.tools
    .specs()
    .filter((spec) => toolEntry(spec.name)?.subagents === 'always')
    .map((spec) => inputs.tools.get(spec.name)!);
  return finish({ request, owner: label, tools, provider: inputs.provider });
}

/** Decides what the sub-agent writes and checks its declaration. */
function finish(plan: Omit<SubagentPlan, 'writes'>): SubagentPlan | string {
  const edits = plan.tools.some((tool) => tool.spec.group === 'edit');
  const commands = plan.tools.some((tool) => tool.spec.group === 'command');
  const paths = plan.request.paths;
  if (!edits && !commands) {
    if (paths !== undefined && paths.length > 0) return `${plan.owner} cannot edit files, so it declares no "paths"`;
    return { ...plan, writes: 'nothing' };
  }
  if (paths === undefined) return `${plan.owner} can edit files or run commands, so it must declare the "paths" it may edit (e.g. ["src/auth/**"])`;
  const problem = declarationProblem(paths);
  if (problem) return `"paths": ${problem}`;
  return { ...plan, writes: commands ? 'everything' : paths.map((p) => p.trim()) };
}

/** A tool some sub-agent may have (a tool without a catalogue row, only tests build one, is not given). */
function subagentsMayHave(name: string): boolean {
  const entry = toolEntry(name);
  return entry !== undefined && entry.subagents !== 'never';
}

/** The parent's handlers an agent's `tools` grant; its MCP calls limited to the servers and tools it names. */
function agentHandlers(agent: AgentDefinition, registry: ToolRegistry): ToolHandler[] {
  const granted = new Set<string>(agent.tools.tools);
  const allMcp = agent.tools.mcp.includes('mcp__');
  const handlers: ToolHandler[] = [];
  for (const spec of registry.specs()) {
    const entry = toolEntry(spec.name);
    if (!entry || entry.subagents === 'never') continue;
    const viaMcp = allMcp && entry.group === 'mcp';
    if (!granted.has(spec.name) && !viaMcp) continue;
    const handler = registry.get(spec.name)!;
    handlers.push(spec.name === ('use_mcp_tool' satisfies ToolName) && !allMcp ? limitedMcpTool(handler, agent) : handler);
  }
  return handlers;
}

function limitedMcpTool(handler: ToolHandler, agent: AgentDefinition): ToolHandler {
  return {
    spec: handler.spec,
    execute: async (params, context) => {
      const server = params.server_name?.trim() ?? '';
      const tool = params.tool_name?.trim() ?? '';
      if (mcpToolAllowed(agent.tools.mcp, server, tool)) return handler.execute(params, context);
      return {
        kind: 'error',
        error: `The agent ${agent.name} may use only these MCP tools: ${agent.tools.mcp.join(', ')}; mcp__${server}__${tool} is not among them.`,
        mistake: true,
      };
    },
  };
}

function modelFor(agent: AgentDefinition, inputs: PlanInputs): { provider: ApiProvider; note?: string } {
  try {
    return agentProvider(agent.model, inputs.provider, inputs.withModel);
  } catch (error) {
    return {
      provider: inputs.provider,
      note: `model "${agent.model}" could not be used (${(error as Error).message}); it runs with ${inputs.provider.modelId}`,
    };
  }
}
