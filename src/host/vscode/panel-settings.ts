import * as vscode from 'vscode';
import type { TaskEnvironment } from '../../core/session/task-environment.js';
import type { Host } from '../../core/ports.js';
import { Emitter } from '../../panel/event-emitter.js';
import type { McpPanelSource, PanelProviderSettings, ProviderChoice, TaskPlace } from '../../panel/panel-ports.js';
import type { AutoApproveView, ModelList, ProviderName } from '../../shared/protocol.js';
import { sandboxInForce } from '../../core/process/task-sandbox.js';
import { ModelFactsCache } from '../../core/providers/model-facts-cache.js';
import { providerModels } from '../../core/providers/provider-models.js';
import { createHostProvider } from './host-provider.js';
import type { ApiProvider } from '../../core/providers/types.js';
import { missingSetup } from '../../shared/provider-setup.js';
import { providerEntry } from '../../shared/providers.js';
import { profileOf } from '../../shared/api-profiles.js';
import { saveProfile, withProfiles } from './profile-settings.js';
import { condenseProviderConfig, modeProviderConfigs } from './mode-profiles.js';
import {
  SETTINGS_SECTION,
  providerConfig,
  providerSettingsBasics,
  providerSettingsView,
  readSettings,
  saveProviderSettings,
  type ProviderKeys,
} from './settings.js';
import type { WebSearchKeys } from './web-search-keys.js';
import { createVsCodeTaskEnvironment, vsCodePermissionRulesFor, type VsCodeTaskInputs } from './task-options.js';
import type { PermissionRule } from '../../core/permissions/permission-rules.js';
import { editorModelList } from './vscode-lm-models.js';
import type { WorkspaceFolderInput } from '../../core/workspace/workspace-roots.js';
import { workspaceSkillsDecision } from '../../core/skills/skill-trust.js';

/** What the panel's provider settings are read from in VS Code. */
interface VsCodePanelSettingsDeps {
  readonly storageDir: string;
  readonly host: Host;
  readonly keys: ProviderKeys;
  /** The search services' keys (web_search); absent: none. */
  readonly searchKeys?: WebSearchKeys;
  /** The window's MCP servers, wired into every task. */
  readonly mcp?: McpPanelSource;
  /** `@problems` and `@terminal` for the panel's messages. */
  readonly mentionSources?: VsCodeTaskInputs['mentionSources'];
  /** Replaces the environment factory (the workbench tests use a scripted model server). */
  readonly createEnvironment?: (inputs: VsCodeTaskInputs) => Promise<TaskEnvironment>;
}

/** The panel's provider settings in VS Code: `smith.*` settings plus keys in SecretStorage. */
export class VsCodePanelSettings implements PanelProviderSettings, vscode.Disposable {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly deps: VsCodePanelSettingsDeps) {
    this.subscriptions = [
      deps.keys.onDidChange(() => this.changed.fire()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(SETTINGS_SECTION)) this.changed.fire();
      }),
    ];
  }

  basics() {
    return withProfiles({ ...providerSettingsBasics(readSettings()), hasApiKey: false });
  }

  async view() {
    return withProfiles(await providerSettingsView(readSettings(), this.deps.keys));
  }

  async save(choice: ProviderChoice & { readonly apiKey?: string }): Promise<void> {
    await saveProviderSettings(choice);
    if (choice.saveAsProfile !== undefined) await saveProfile(choice.saveAsProfile, profileOf(choice));
    if (choice.apiKey !== undefined) await this.deps.keys.store(choice.provider, choice.apiKey);
  }

  async listModels(provider: ProviderName, baseUrl: string): Promise<ModelList> {
    // VS Code lists its own language models; the engine cannot ask it.
    if (providerEntry(provider).models === 'editor') return editorModelList(baseUrl);
    const settings = readSettings();
    const apiKey = await this.deps.keys.get(provider);
    const listed = await providerModels(providerConfig({ ...settings, provider, baseUrl: baseUrl.trim() }, apiKey, settings.model || 'none'), {
      cache: ModelFactsCache.in(this.deps.storageDir),
    });
    return { provider, baseUrl, ...listed, models: [...listed.models] };
  }

  disabledRules(): readonly string[] {
    return readSettings().disabledRules;
  }

  /** In the workspace's settings when a folder is open (rules are the workspace's), else the user's. */
  async saveDisabledRules(labels: readonly string[]): Promise<void> {
    const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await vscode.workspace.getConfiguration(SETTINGS_SECTION).update('disabledRules', labels.length > 0 ? [...labels] : undefined, target);
  }

  disabledSkills(): readonly string[] {
    return readSettings().disabledSkills;
  }

  /** In the workspace's settings when a folder is open (a skill may be unwanted in one project only), else the user's. */
  async saveDisabledSkills(names: readonly string[]): Promise<void> {
    const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await vscode.workspace.getConfiguration(SETTINGS_SECTION).update('disabledSkills', names.length > 0 ? [...names] : undefined, target);
  }

  skillFolders(): readonly string[] {
    return readSettings().skillFolders;
  }

  /** The user's answer for these skill files, in a workspace VS Code trusts (in Restricted Mode never). */
  workspaceSkillsTrusted(cwd: string, fingerprint: string): boolean {
    return vscode.workspace.isTrusted && workspaceSkillsDecision(this.deps.storageDir, cwd, fingerprint) === 'trusted';
  }

  autoApprove(): AutoApproveView {
    const settings = readSettings();
    const { readFiles, editFiles, safeCommands, allCommands, mcpTools, browser } = settings.policy;
    return {
      readFiles,
      editFiles,
      safeCommands,
      allCommands,
      mcpTools,
      ...(browser ? { browser: true } : {}),
      maxRequests: settings.maxIterations,
      ...(settings.maxCost !== undefined ? { maxCost: settings.maxCost } : {}),
      ...(sandboxInForce(settings.sandbox !== undefined, () => this.changed.fire()) ? { sandboxed: true } : {}),
    };
  }

  async saveAutoApprove(change: Parameters<PanelProviderSettings['saveAutoApprove']>[0]): Promise<void> {
    const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    const target = vscode.ConfigurationTarget.Global;
    for (const key of ['readFiles', 'editFiles', 'safeCommands', 'allCommands', 'mcpTools', 'browser'] as const) {
      const value = change[key];
      if (value !== undefined) await config.update(`autoApprove.${key}`, value, target);
    }
    if (change.maxRequests !== undefined) await config.update('maxIterations', change.maxRequests, target);
    if (change.maxCost !== undefined) await config.update('maxCost', change.maxCost > 0 ? change.maxCost : undefined, target);
  }

  async createEnvironment(cwd: string, additionalRoots: readonly WorkspaceFolderInput[] = [], place: TaskPlace = {}): Promise<TaskEnvironment | undefined> {
    const settings = readSettings();
    const apiKey = await this.deps.keys.get(settings.provider);
    if (missingSetup(settings, apiKey !== undefined).length > 0) return undefined;
    const mcp = this.deps.mcp?.wiring;
    const modes = await modeProviderConfigs(settings, this.deps.keys);
    const condense = await condenseProviderConfig(settings, this.deps.keys);
    for (const problem of [...modes.problems, ...(condense.problem ? [condense.problem] : [])]) this.deps.host.notify('warning', problem);
    const inputs: VsCodeTaskInputs = {
      storageDir: this.deps.storageDir,
      cwd,
      additionalRoots,
      // The task's own approvals and questions: the panel tells each task's waits apart.
      host: place.asks ? { ...this.deps.host, ...place.asks } : this.deps.host,
      ...(place.worktree ? { worktree: place.worktree } : {}),
      settings,
      apiKey,
      ...(this.deps.searchKeys ? { webSearchKeys: await this.deps.searchKeys.all() } : {}),
      modeProviders: modes.configs,
      ...(condense.config ? { condenseProvider: condense.config } : {}),
      livePolicy: () => readSettings().policy,
      disabledRules: () => new Set(readSettings().disabledRules),
      agentSkills: {
        settingFolders: settings.skillFolders,
        disabled: () => new Set(readSettings().disabledSkills),
        workspaceTrusted: (fingerprint) => this.workspaceSkillsTrusted(cwd, fingerprint),
      },
      ...(this.deps.mentionSources ? { mentionSources: this.deps.mentionSources } : {}),
      ...(mcp ? { mcp } : {}),
    };
    return (this.deps.createEnvironment ?? createVsCodeTaskEnvironment)(inputs);
  }

  maxTotalCost(): number | undefined {
    return readSettings().maxTotalCost;
  }

  worktreeSettings() {
    return readSettings().worktree;
  }

  permissionRules(cwd: string): readonly PermissionRule[] {
    return vsCodePermissionRulesFor(readSettings(), this.deps.storageDir, cwd);
  }

  /** The provider of the current settings with another model (for a replay); undefined when the setup is incomplete. */
  async providerWithModel(model: string): Promise<ApiProvider | undefined> {
    const settings = readSettings();
    const apiKey = await this.deps.keys.get(settings.provider);
    if (missingSetup(settings, apiKey !== undefined).length > 0) return undefined;
    return createHostProvider(providerConfig(settings, apiKey, model));
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}
