import { DEFAULT_MCP_REGISTRY_URL } from '../../core/mcp/mcp-registry.js';
import * as vscode from 'vscode';
import { DEFAULT_PREVIEW_TIMEOUT_SECONDS, MAX_PREVIEW_TIMEOUT_SECONDS } from '../../core/preview/preview-timeout.js';
import type { ProviderChoice } from '../../panel/panel-ports.js';
import type { ModelInfoOverrides } from '../../core/providers/model-catalog.js';
import { REASONING_EFFORTS, type ProviderName, type ProviderSettingsView, type ReasoningEffortName } from '../../shared/protocol.js';
import { OPENAI_APIS, type OpenAiApi } from '../../shared/provider-schemas.js';
import { DEFAULT_MODELS, missingSetup } from '../../shared/provider-setup.js';
import { API_KEY_ENV_VARS, PROVIDER_IDS, providerEntry } from '../../shared/providers.js';
import type { ProviderConfig, ProviderId, ToolProtocol } from '../../core/providers/types.js';
import { DEFAULT_DISCOVERY_THRESHOLD } from '../../core/mcp/mcp-prompt.js';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../../core/providers/stream-guard.js';
import type { AutoApprovePolicy } from '../../core/log/approval-policy.js';
import type { SandboxRequest } from '../../core/process/task-sandbox.js';
import { DEFAULT_MAX_REPEATED_CALLS } from '../../core/task/repeated-calls.js';
import { DEFAULT_SUBAGENT_SETTINGS, type SubagentSettings } from '../../core/subagents/subagent-runner.js';
import type { CheckpointSettings } from '../../core/checkpoints/open-checkpoint-store.js';
import type { PermissionEffect } from '../../core/permissions/permission-rules.js';
import { parseRule } from '../../core/permissions/rule-syntax.js';
import type { WebToolSettings } from '../../core/browser/browser-settings.js';
import { readWebSettings } from './web-settings.js';
import type { WorktreeSettings } from '../../core/worktrees/worktree-types.js';

/** The `smith.*` configuration section. */
export const SETTINGS_SECTION = 'smith';

/** Every provider the settings can name, in the order the panel lists them. */
const PROVIDER_NAMES: readonly ProviderName[] = PROVIDER_IDS;
export { API_KEY_ENV_VARS };

/** The `smith.*` settings, read and checked. */
export interface SmithSettings {
  readonly provider: ProviderName;
  /** The configured model, or the provider's default when none is set. */
  readonly model: string;
  readonly baseUrl: string;
  /** `smith.azureApiVersion`: Azure OpenAI's api-version; '' for the default. */
  readonly azureApiVersion: string;
  /** `smith.openAiApi`: the OpenAI API to speak; '' for the model catalogue's choice. */
  readonly openAiApi: OpenAiApi | '';
  /** `smith.vertex.project`, `smith.vertex.region`, `smith.bedrock.region`; '' means the environment's. */
  readonly cloud: CloudSettings;
  readonly policy: AutoApprovePolicy;
  readonly maxIterations: number;
  /** `smith.maxRepeatedCalls`: identical calls in a row before the model is told it repeats itself, then the user asked (0: never). */
  readonly maxRepeatedCalls: number;
  /** `smith.commandPreview.timeoutSeconds`: seconds a command preview may run. */
  readonly commandPreviewTimeoutSeconds: number;
  /** Per-mode models; empty means "use `model`". */
  readonly planModel: string;
  readonly actModel: string;
  /** `smith.planProfile`, `smith.actProfile`: the API profile a mode uses instead (it wins over the mode's model); empty: none. */
  readonly planProfile: string;
  readonly actProfile: string;
  /** `smith.reasoningEffort`: how hard reasoning models think ('off': the vendor's default). */
  readonly reasoningEffort: ReasoningEffortName;
  /** How the model calls tools: XML blocks in its text (any model) or the vendor's native tool calling. */
  readonly toolProtocol: ToolProtocol;
  /** Above this many MCP tools the prompt lists servers only and the model searches for tools. */
  readonly mcpDiscoveryThreshold: number;
  /** The MCP Registry the MCP view's "Browse servers" searches (a company's mirror, or the official one). */
  readonly mcpRegistryUrl: string;
  /** Window and prices for models neither the provider nor the catalogue describes, or to correct them. */
  readonly modelOverrides: ModelInfoOverrides;
  /** `smith.requestIdleTimeout` in milliseconds: a request receiving no byte for this long is retried; 0 turns it off. */
  readonly idleTimeoutMs: number;
  readonly checkpoints: CheckpointSettings;
  /** `smith.worktree.*`: where a task's worktree is made and which untracked files it gets. */
  readonly worktree: WorktreeSettings;
  /** US dollars a task may cost before Smith stops and asks; undefined: no limit. */
  readonly maxCost?: number;
  /** `smith.maxTotalCost`: US dollars the panel's tasks may cost together before each stops and asks; undefined: no limit. */
  readonly maxTotalCost?: number;
  /** `smith.permissions`: rules that are not valid are left out (and reported where the task starts). */
  readonly permissions: readonly { readonly effect: PermissionEffect; readonly rule: string }[];
  /** `smith.autoCondensePercent` as a share (0.1–1): condense the history when a request fills this much of the window. */
  readonly autoCondenseAt: number;
  /** `smith.autoCondenseTokens`: condense when a request holds this many tokens, whatever the window; 0 (absent): only the share. */
  readonly autoCondenseTokens?: number;
  /** `smith.condenseProfile` (an API profile) and `smith.condenseModel` (a model of the main provider): who writes the summaries; '' for the task's own model. */
  readonly condenseProfile: string;
  readonly condenseModel: string;
  /** `smith.commitMessage.profile`: the API profile that writes commit messages; '' for the main settings. */
  readonly commitMessageProfile: string;
  /** `smith.disabledRules`: labels of the rules files the user turned off. */
  readonly disabledRules: readonly string[];
  /** `smith.modelCatalogUrl`: where "Refresh Model Catalogue" fetches newer models' facts; '' asks. */
  readonly modelCatalogUrl: string;
  /** `smith.disabledSkills`: names of the Agent Skills the user turned off. */
  readonly disabledSkills: readonly string[];
  /** `smith.skillFolders`, from the user's settings only: a repository's settings cannot name folders to read. */
  readonly skillFolders: readonly string[];
  /** `smith.notifications`: tell the user, when no Smith chat is visible, that Smith waits for them or has finished. */
  readonly notifications: boolean;
  /** `smith.sandbox` (with `smith.sandboxNetwork`, `smith.sandboxAllowedHosts`): commands run confined; absent when off. */
  readonly sandbox?: SandboxRequest;
  /** `smith.subagents.maxParallel` and `smith.subagents.maxRequests`. */
  readonly subagents: SubagentSettings;
  /** `smith.browser.*` and `smith.web.deniedDomains`: the browser browser_action drives and the hosts the web tools refuse. */
  readonly web: WebToolSettings;
}

/** Where the cloud accounts' models run; '' leaves it to the environment variables their SDKs read. */
interface CloudSettings {
  readonly vertexProject: string;
  readonly vertexRegion: string;
  readonly bedrockRegion: string;
}

/** Reads the `smith.*` settings; a bad value falls back to its default rather than failing. */
export function readSettings(config: vscode.WorkspaceConfiguration = vscode.workspace.getConfiguration(SETTINGS_SECTION)): SmithSettings {
  const provider = oneOf(config.get<string>('provider'), PROVIDER_NAMES, 'anthropic');
  const text = (key: string) => {
    const value = config.get<unknown>(key);
    return typeof value === 'string' ? value.trim() : '';
  };
  const flag = (key: string, fallback: boolean) => {
    const value = config.get<unknown>(key);
    return typeof value === 'boolean' ? value : fallback;
  };
  const count = (key: string, fallback: number, min: number) => {
    const value = config.get<unknown>(key);
    return typeof value === 'number' && Number.isFinite(value) && value >= min ? Math.floor(value) : fallback;
  };
  return {
    provider,
    model: text('model') || DEFAULT_MODELS[provider],
    baseUrl: text('baseUrl'),
    azureApiVersion: text('azureApiVersion'),
    openAiApi: oneOf(config.get<string>('openAiApi'), ['', ...OPENAI_APIS] as const, ''),
    cloud: { vertexProject: text('vertex.project'), vertexRegion: text('vertex.region'), bedrockRegion: text('bedrock.region') },
    policy: {
      readFiles: flag('autoApprove.readFiles', true),
      editFiles: flag('autoApprove.editFiles', false),
      safeCommands: flag('autoApprove.safeCommands', false),
      allCommands: flag('autoApprove.allCommands', false),
      mcpTools: flag('autoApprove.mcpTools', false),
      browser: flag('autoApprove.browser', false),
      // Paths outside the workspace always ask in the editor; only the CLI has a switch for it.
      outsideWorkspace: false,
      maxConsecutive: count('autoApprove.maxConsecutive', 0, 0),
    },
    maxIterations: count('maxIterations', 25, 1),
    maxRepeatedCalls: count('maxRepeatedCalls', DEFAULT_MAX_REPEATED_CALLS, 0),
    commandPreviewTimeoutSeconds: previewSeconds(config.get<unknown>('commandPreview.timeoutSeconds')),
    planModel: text('planModel'),
    actModel: text('actModel'),
    planProfile: text('planProfile'),
    actProfile: text('actProfile'),
    reasoningEffort: oneOf(config.get<string>('reasoningEffort'), REASONING_EFFORTS, 'off'),
    toolProtocol: oneOf(config.get<string>('toolProtocol'), ['xml', 'native'] as const, 'xml'),
    mcpDiscoveryThreshold: count('mcp.discoveryThreshold', DEFAULT_DISCOVERY_THRESHOLD, 0),
    mcpRegistryUrl: text('mcp.registryUrl') || DEFAULT_MCP_REGISTRY_URL,
    idleTimeoutMs: idleTimeoutMs(config.get<unknown>('requestIdleTimeout')),
    worktree: {
      ...(text('worktree.parent') ? { parent: text('worktree.parent') } : {}),
      copyFiles: stringList(config.get<unknown>('worktree.copyFiles')),
    },
    checkpoints: {
      enabled: flag('checkpoints.enabled', true),
      maxFileBytes: Math.round(positiveOr(config.get<unknown>('checkpoints.maxFileSizeMb'), 5) * 1024 * 1024),
    },
    ...(positiveOr(config.get<unknown>('maxCost'), 0) > 0 ? { maxCost: positiveOr(config.get<unknown>('maxCost'), 0) } : {}),
    ...(positiveOr(config.get<unknown>('maxTotalCost'), 0) > 0 ? { maxTotalCost: positiveOr(config.get<unknown>('maxTotalCost'), 0) } : {}),
    permissions: permissionRules(config.get<unknown>('permissions')),
    notifications: flag('notifications', true),
    modelCatalogUrl: text('modelCatalogUrl'),
    subagents: {
      maxParallel: count('subagents.maxParallel', DEFAULT_SUBAGENT_SETTINGS.maxParallel, 1),
      maxRequests: count('subagents.maxRequests', DEFAULT_SUBAGENT_SETTINGS.maxRequests, 1),
    },
    ...(flag('sandbox', false)
      ? { sandbox: { network: flag('sandboxNetwork', false), allowedHosts: stringList(config.get<unknown>('sandboxAllowedHosts')) } }
      : {}),
    disabledRules: stringList(config.get<unknown>('disabledRules')),
    disabledSkills: stringList(config.get<unknown>('disabledSkills')),
    skillFolders: stringList(config.inspect<unknown>('skillFolders')?.globalValue),
    web: readWebSettings(config),
    autoCondenseAt: condenseShare(config.get<unknown>('autoCondensePercent')),
    ...(count('autoCondenseTokens', 0, 0) >= 1000 ? { autoCondenseTokens: count('autoCondenseTokens', 0, 0) } : {}),
    condenseProfile: text('condenseProfile'),
    condenseModel: text('condenseModel'),
    commitMessageProfile: text('commitMessage.profile'),
    modelOverrides: {
      ...positive(config.get<unknown>('modelContextWindow'), 'contextWindow'),
      ...positive(config.get<unknown>('modelInputPrice'), 'inputPrice'),
      ...positive(config.get<unknown>('modelOutputPrice'), 'outputPrice'),
      ...(flag('modelSupportsImages', false) ? { supportsImages: true } : {}),
    },
  };
}

/** A list of non-empty strings; anything else is empty. */
function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '') : [];
}

/** `smith.autoCondensePercent` (10–100) as a share; anything else is the default 80 %. */
function condenseShare(percent: unknown): number {
  return typeof percent === 'number' && Number.isFinite(percent) && percent >= 10 && percent <= 100 ? percent / 100 : 0.8;
}

/** `smith.commandPreview.timeoutSeconds` (seconds, 1 to the maximum); anything else is the default. */
function previewSeconds(seconds: unknown): number {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 1 && seconds <= MAX_PREVIEW_TIMEOUT_SECONDS
    ? seconds
    : DEFAULT_PREVIEW_TIMEOUT_SECONDS;
}

/** `smith.requestIdleTimeout` (seconds, 0 or more) in milliseconds; anything else is the default. */
function idleTimeoutMs(seconds: unknown): number {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : DEFAULT_IDLE_TIMEOUT_MS;
}

/** A number the user set (0 or more), as an override field; anything else leaves the field out. */
function positive(value: unknown, key: keyof ModelInfoOverrides): ModelInfoOverrides {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && !(key === 'contextWindow' && value === 0) ? { [key]: value } : {};
}

/** Writes the provider choice to the user settings; the key goes to ProviderKeys, never here. */
export async function saveProviderSettings(
  choice: ProviderChoice,
  config: vscode.WorkspaceConfiguration = vscode.workspace.getConfiguration(SETTINGS_SECTION),
): Promise<void> {
  const target = vscode.ConfigurationTarget.Global;
  const entries: [string, string][] = [
    ['provider', choice.provider],
    ['model', choice.model.trim()],
    ['baseUrl', choice.baseUrl.trim()],
  ];
  if (choice.toolProtocol !== undefined) entries.push(['toolProtocol', choice.toolProtocol]);
  if (choice.planModel !== undefined) entries.push(['planModel', choice.planModel.trim()]);
  if (choice.actModel !== undefined) entries.push(['actModel', choice.actModel.trim()]);
  if (choice.planProfile !== undefined) entries.push(['planProfile', choice.planProfile.trim()]);
  if (choice.actProfile !== undefined) entries.push(['actProfile', choice.actProfile.trim()]);
  if (choice.reasoningEffort !== undefined) entries.push(['reasoningEffort', choice.reasoningEffort]);
  for (const [key, value] of entries) {
    if ((config.get<string>(key) ?? '') !== value) await config.update(key, value, target);
  }
}

/**
 * API keys, one SecretStorage entry per provider. They never reach settings.json, the task log or
 * the webview; without a stored key the CLI's environment variable is used.
 */
export class ProviderKeys {
  private readonly changed = new vscode.EventEmitter<ProviderName>();
  /** Fires when a provider's stored key is set or removed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** The key to use: the stored one, else the environment variable, else undefined. */
  async get(provider: ProviderName): Promise<string | undefined> {
    const stored = await this.secrets.get(secretKey(provider));
    if (stored) return stored;
    const fromEnv = this.env[API_KEY_ENV_VARS[provider]]?.trim();
    return fromEnv || undefined;
  }

  /** Stores a key; an empty string removes the stored one (the environment fallback then applies). */
  async store(provider: ProviderName, apiKey: string): Promise<void> {
    const key = apiKey.trim();
    if (key) await this.secrets.store(secretKey(provider), key);
    else await this.secrets.delete(secretKey(provider));
    this.changed.fire(provider);
  }

  /** True when a key is stored or in the environment. */
  async has(provider: ProviderName): Promise<boolean> {
    return (await this.get(provider)) !== undefined;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The SecretStorage entry of a provider's key. */
export function secretKey(provider: ProviderName): string {
  return `smith.apiKey.${provider}`;
}

/** The provider settings as the panel shows them (without the key). */
export async function providerSettingsView(settings: SmithSettings, keys: ProviderKeys): Promise<ProviderSettingsView> {
  const hasApiKey = await keys.has(settings.provider);
  return { ...providerSettingsBasics(settings), hasApiKey, missing: missingSetup(settings, hasApiKey) };
}

/** The settings view before the key store has been asked whether a key exists. */
export function providerSettingsBasics(settings: SmithSettings): Omit<ProviderSettingsView, 'hasApiKey'> {
  return {
    provider: settings.provider,
    model: settings.model,
    baseUrl: settings.baseUrl,
    toolProtocol: settings.toolProtocol,
    planModel: settings.planModel,
    actModel: settings.actModel,
    ...(settings.planProfile ? { planProfile: settings.planProfile } : {}),
    ...(settings.actProfile ? { actProfile: settings.actProfile } : {}),
    reasoningEffort: settings.reasoningEffort,
  };
}

/** The engine's provider config for a model (the main one, or a per-mode one). */
export function providerConfig(settings: SmithSettings, apiKey: string | undefined, model = settings.model): ProviderConfig {
  return {
    // createProvider names the providers it supports when given one it does not know.
    provider: settings.provider as ProviderId,
    model,
    ...(apiKey ? { apiKey } : {}),
    ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
    ...(settings.azureApiVersion ? { apiVersion: settings.azureApiVersion } : {}),
    ...(settings.openAiApi ? { openAiApi: settings.openAiApi } : {}),
    ...cloudLocation(settings),
    ...(settings.toolProtocol === 'native' ? { toolProtocol: settings.toolProtocol } : {}),
    ...(settings.reasoningEffort !== 'off' ? { reasoning: { effort: settings.reasoningEffort } } : {}),
    idleTimeoutMs: settings.idleTimeoutMs,
  };
}

/** The project and region of the settings' provider, when it runs in a cloud account and they are set. */
function cloudLocation(settings: SmithSettings): Pick<ProviderConfig, 'project' | 'location'> {
  const { api } = providerEntry(settings.provider);
  const { vertexProject, vertexRegion, bedrockRegion } = settings.cloud;
  if (api === 'anthropic-vertex' || api === 'gemini-vertex')
    return { ...(vertexProject ? { project: vertexProject } : {}), ...(vertexRegion ? { location: vertexRegion } : {}) };
  if (api === 'anthropic-bedrock' && bedrockRegion) return { location: bedrockRegion };
  return {};
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

function positiveOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** `{allow, ask, deny}` lists of rule strings; anything else in them is left out. */
function permissionRules(value: unknown): Array<{ effect: PermissionEffect; rule: string }> {
  if (!value || typeof value !== 'object') return [];
  return (['deny', 'ask', 'allow'] as const).flatMap((effect) => {
    const list = (value as Record<string, unknown>)[effect];
    return (Array.isArray(list) ? list : []).filter((rule): rule is string => typeof rule === 'string' && validRule(rule)).map((rule) => ({ effect, rule }));
  });
}

function validRule(rule: string): boolean {
  try {
    parseRule(rule);
    return true;
  } catch {
    return false;
  }
}
