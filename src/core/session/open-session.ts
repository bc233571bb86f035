// The one door from a host into the engine: every host (the CLI, mcp-serve, the editor's panel,
// a replay) reads its own settings, supplies its ports, and opens its task environment here.
import type { CheckpointSettings } from '../checkpoints/open-checkpoint-store.js';
import type { WebToolSettings } from '../browser/browser-settings.js';
import type { HookSettings } from '../hooks/hooks.js';
import type { McpTaskWiring } from '../tools/mcp-tools.js';
import type { PermissionRule } from '../permissions/permission-rules.js';
import type { Host } from '../ports.js';
import type { SandboxRequest } from '../process/task-sandbox.js';
import { createModeProvider, createProvider } from '../providers/create-provider.js';
import type { ModelInfoOverrides } from '../providers/model-catalog.js';
import type { ApiProvider, ProviderConfig } from '../providers/types.js';
import { SecretRedactor } from '../secrets/secret-redactor.js';
import type { PlanAct } from '../../shared/plan-act.js';
import type { SubagentSettings } from '../subagents/subagent-runner.js';
import type { AutoApprovePolicy } from '../log/approval-policy.js';
import type { WorkspaceFolderInput } from '../workspace/workspace-roots.js';
import type { TaskWorktree } from '../worktrees/worktree-types.js';
import { type AgentSkillSettings, createTaskEnvironment, type TaskEnvironment, type TaskEnvironmentInput } from './task-environment.js';

/** The modes a task switches between, each of which may run with its own model. */
const MODES: readonly PlanAct[] = ['plan', 'act'];

/** Where a session works. */
export interface SessionPlace {
  /** The primary workspace folder: relative paths resolve here, commands run here. */
  readonly cwd: string;
  /** The git worktree `cwd` is in, when the task has one of its own (worktrees/create-worktree.ts). */
  readonly worktree?: TaskWorktree;
  /** The other folders of a multi-root workspace. */
  readonly additionalRoots?: readonly WorkspaceFolderInput[];
  /** Smith's own storage: tasks/, modes/, rules/ live under it. */
  readonly storageDir: string;
}

/** The models the user chose, as provider settings (keys already resolved by the host). */
export interface ModelSettings {
  /** The model of every mode that has none of its own. */
  readonly main: ProviderConfig;
  /** A mode's own API profile; it wins over the mode's model, and a provider error names it. */
  readonly profiles?: Partial<Record<PlanAct, ProviderConfig>>;
  /** A mode's own model on the main provider; one equal to the main model adds nothing. */
  readonly modeModels?: Partial<Record<PlanAct, string>>;
  /** The model that writes summaries when the history is condensed: an API profile, or a model on the main provider. */
  readonly condense?: ProviderConfig;
  readonly condenseModel?: string;
}

/** The providers a session talks to: the main one and those of the modes with their own model. */
export interface SessionProviders {
  readonly main: ApiProvider;
  readonly forMode?: Partial<Record<PlanAct, ApiProvider>>;
  /** Another model on the main provider (its key and address), for an agent whose `model:` names one. */
  readonly withModel?: (modelId: string) => ApiProvider;
  /** The model that writes summaries when the history is condensed; absent: each turn's own. */
  readonly condense?: ApiProvider;
}

/**
 * Builds the main provider and each mode's own, with the host's builder (the editor also reaches
 * its own language models). Throws the ProviderError that says what to fix, before anything opens.
 */
export function sessionProviders(models: ModelSettings, build: (config: ProviderConfig) => ApiProvider = createProvider): SessionProviders {
  const main = build(models.main);
  const forMode: Partial<Record<PlanAct, ApiProvider>> = {};
  for (const mode of MODES) {
    const profile = models.profiles?.[mode];
    const model = models.modeModels?.[mode];
    if (profile) forMode[mode] = createModeProvider(mode, profile, build);
    else if (model && model !== models.main.model) forMode[mode] = build({ ...models.main, model });
  }
  const withModel = (model: string) => build({ ...models.main, model });
  const condense = models.condense ? build(models.condense) : models.condenseModel ? withModel(models.condenseModel) : undefined;
  return { main, ...(Object.keys(forMode).length > 0 ? { forMode } : {}), withModel, ...(condense ? { condense } : {}) };
}

/**
 * A redactor holding the keys the models use and, read live, the MCP servers' credentials: for a
 * host that knows exactly which keys it resolved (the editor); the CLI redacts every key variable.
 */
export function keysInUseRedactor(models: ModelSettings, mcp?: Pick<McpTaskWiring, 'credentials'>): SecretRedactor {
  const redactor = new SecretRedactor();
  redactor.set('provider', [models.main.apiKey, ...Object.values(models.profiles ?? {}).map((config) => config.apiKey)]);
  if (mcp) redactor.track('mcp', () => mcp.credentials());
  return redactor;
}

/** What the user chose for the tasks of a session, whichever host read it. */
export interface SessionSettings {
  /** A function is read before each tool call (the panel's auto-approve toggles apply at once). */
  readonly policy: AutoApprovePolicy | (() => AutoApprovePolicy);
  readonly maxIterations: number;
  /** Identical calls in a row before the model is told it repeats itself (0: never). */
  readonly maxRepeatedCalls?: number;
  /** Seconds a command preview may run (docs/command-preview.md). */
  readonly commandPreviewTimeoutSeconds?: number;
  /** US dollars a run may cost before Smith stops and asks. */
  readonly maxCost?: number;
  /** The share of the model's window (0–1) at which the history is condensed. */
  readonly autoCondenseAt?: number;
  /** A request size in tokens at which the history is condensed (the lower trigger wins). */
  readonly autoCondenseTokens?: number;
  /** The user's window and prices for models the catalogue does not know. */
  readonly modelOverrides?: ModelInfoOverrides;
  readonly checkpoints?: CheckpointSettings;
  /** A function is read before each call, so a rule added while a task runs applies at once. */
  readonly permissions?: readonly PermissionRule[] | (() => readonly PermissionRule[]);
  readonly hooks?: HookSettings;
  readonly sandbox?: SandboxRequest;
  readonly subagents?: SubagentSettings;
  /** The user's agent folders besides `<storage>/agents`, and the workspace agents' trust (agent-files.ts). */
  readonly agents?: TaskEnvironmentInput['agents'];
  /** Whether the workspace's mode files are trusted (mode-loader.ts). */
  readonly modes?: TaskEnvironmentInput['modes'];
  readonly web?: WebToolSettings;
  /** Labels of the rules files the user turned off, read before each request. */
  readonly disabledRules?: () => ReadonlySet<string>;
  /** Extra skills folders, skills turned off, and whether the workspace's skills may be offered. */
  readonly agentSkills?: AgentSkillSettings;
}

/** What the host supplies beyond its settings. */
export interface SessionPorts {
  /** Files, processes, approvals, questions, the clock and notices. */
  readonly host: Host;
  /** The user's secrets, kept out of the log, the requests and the UI. */
  readonly redactor?: SecretRedactor;
  /** The host's MCP servers: their tools, prompt section, per-turn tool filter and first connections. */
  readonly mcp?: McpTaskWiring;
  /** Environment sections only the host knows (the editor's visible files and tabs). */
  readonly hostEnvironment?: TaskEnvironmentInput['hostEnvironment'];
  /** What only an editor can attach to a message: `@problems`, `@terminal`. */
  readonly mentionSources?: TaskEnvironmentInput['mentionSources'];
}

/** A session to open: where, with which providers, the user's settings and the host's ports. */
export interface SessionInput {
  readonly place: SessionPlace;
  readonly providers: SessionProviders;
  readonly settings: SessionSettings;
  readonly ports: SessionPorts;
}

/** Opens the task environment of a session; the same inputs give the same environment from every host. */
export function openSession(input: SessionInput): Promise<TaskEnvironment> {
  const { place, providers, settings, ports } = input;
  return createTaskEnvironment({
    cwd: place.cwd,
    ...(place.worktree ? { worktree: place.worktree } : {}),
    ...(place.additionalRoots && place.additionalRoots.length > 0 ? { additionalRoots: place.additionalRoots } : {}),
    storageDir: place.storageDir,
    host: ports.host,
    provider: providers.main,
    ...(providers.forMode ? { providerForMode: providers.forMode } : {}),
    policy: settings.policy,
    maxIterations: settings.maxIterations,
    ...defined({
      maxRepeatedCalls: settings.maxRepeatedCalls,
      commandPreviewTimeoutSeconds: settings.commandPreviewTimeoutSeconds,
      maxCost: settings.maxCost,
      autoCondenseAt: settings.autoCondenseAt,
      autoCondenseTokens: settings.autoCondenseTokens,
      condenseProvider: providers.condense,
      modelOverrides: settings.modelOverrides,
      checkpoints: settings.checkpoints,
      permissions: settings.permissions,
      hooks: settings.hooks,
      sandbox: settings.sandbox,
      subagents: settings.subagents,
      agents: settings.agents,
      modes: settings.modes,
      withModel: providers.withModel,
      web: settings.web,
      disabledRules: settings.disabledRules,
      agentSkills: settings.agentSkills,
      redactor: ports.redactor,
      hostEnvironment: ports.hostEnvironment,
      mentionSources: ports.mentionSources,
    }),
    ...(ports.mcp
      ? { extraTools: ports.mcp.tools, extraPromptSections: ports.mcp.promptSections, hiddenTools: ports.mcp.hiddenTools, waitForTools: ports.mcp.ready }
      : {}),
  });
}

/** The fields that are set (exactOptionalPropertyTypes: an absent setting is left out, not undefined). */
function defined<T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
