import type { MentionEnvironment } from '../../core/context/mentions.js';
import type { McpTaskWiring } from '../../core/tools/mcp-tools.js';
import { WorkspaceTrust } from '../../core/mcp/workspace-trust.js';
import type { PermissionRule } from '../../core/permissions/permission-rules.js';
import { loadPermissionSettings } from '../../core/permissions/settings-files.js';
import { askSettingsTrust } from '../../core/permissions/settings-trust.js';
import type { Host } from '../../core/ports.js';
import type { ProviderConfig } from '../../core/providers/types.js';
import { keysInUseRedactor, openSession, sessionProviders, type ModelSettings } from '../../core/session/open-session.js';
import type { AgentSkillSettings, TaskEnvironment } from '../../core/session/task-environment.js';
import type { PlanAct } from '../../shared/plan-act.js';
import type { WorkspaceFolderInput } from '../../core/workspace/workspace-roots.js';
import { type KeyedBackend, withSearchKeys } from '../../core/web-search/web-search-settings.js';
import { editorEnvironment } from './editor-environment.js';
import { createHostProvider } from './host-provider.js';
import { askSettingsTrustInWindow } from './settings-trust-prompt.js';
import { askAgentsTrustInWindow } from './agents-trust-prompt.js';
import { windowModeTrust } from './modes-trust-prompt.js';
import { askSkillsTrustInWindow } from './skills-trust-prompt.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { providerConfig, type SmithSettings } from './settings.js';
import type { TaskWorktree } from '../../core/worktrees/worktree-types.js';

/** What only an editor attaches to a message. */
type MentionSources = Pick<MentionEnvironment, 'problems' | 'terminal'>;

/** What the panel knows when it sets up a task. */
export interface VsCodeTaskInputs {
  readonly storageDir: string;
  readonly cwd: string;
  /** The other folders of a multi-root workspace. */
  readonly additionalRoots?: readonly WorkspaceFolderInput[];
  /** The git worktree `cwd` is in, when the task has one of its own. */
  readonly worktree?: TaskWorktree;
  readonly host: Host;
  readonly settings: SmithSettings;
  readonly apiKey: string | undefined;
  /** The search services' keys web_search may use (SecretStorage, else the environment). */
  readonly webSearchKeys?: Partial<Record<KeyedBackend, string>>;
  /** The modes that use their own API profile (which wins over the mode's model in the settings). */
  readonly modeProviders?: Partial<Record<PlanAct, ProviderConfig>>;
  /** `smith.condenseProfile` as a provider config, when it names a profile. */
  readonly condenseProvider?: ProviderConfig;
  /** The auto-approve settings as they are now, read before each tool call (default: as the task started). */
  readonly livePolicy?: () => SmithSettings['policy'];
  /** Labels of the rules files the user turned off, read before each request. */
  readonly disabledRules?: () => ReadonlySet<string>;
  /** Extra skills folders, skills turned off, and the window's Workspace Trust. */
  readonly agentSkills?: AgentSkillSettings;
  /** `@problems` and `@terminal` for messages. */
  readonly mentionSources?: MentionSources;
  /** The window's MCP tools, prompt section and tool filter. */
  readonly mcp?: McpTaskWiring;
}

/** The rules of the `smith.permissions` setting, then those of the settings files (already read). */
function vsCodePermissionRules(settings: Pick<SmithSettings, 'permissions'>, fileRules: readonly PermissionRule[]): PermissionRule[] {
  return [...settings.permissions.map((p) => ({ ...p, source: 'smith.permissions' })), ...fileRules];
}

/** The rules a task in `cwd` runs with: the setting and the settings files (a workspace's allow rules once trusted). */
export function vsCodePermissionRulesFor(settings: Pick<SmithSettings, 'permissions'>, storageDir: string, cwd: string): PermissionRule[] {
  return vsCodePermissionRules(settings, settingsFiles(storageDir, cwd).rules);
}

/** The settings files (user and workspace): rules and hooks; a workspace's allow rules and hooks wait for its trust. */
function settingsFiles(storageDir: string, cwd: string): ReturnType<typeof loadPermissionSettings> {
  return loadPermissionSettings({ storageDir, workspaceRoot: cwd, trust: new WorkspaceTrust({ storageDir }).check });
}

/**
 * The extension's door into a session: its settings and keys as host-neutral settings, its editor
 * as ports (docs/architecture.md, "How a host starts a task"). Throws a ProviderError saying what
 * to fix when a provider cannot be built (no key, no model, no base URL).
 */
export async function createVsCodeTaskEnvironment(input: VsCodeTaskInputs): Promise<TaskEnvironment> {
  const { settings, apiKey } = input;
  const models: ModelSettings = {
    main: providerConfig(settings, apiKey),
    ...(input.modeProviders ? { profiles: input.modeProviders } : {}),
    modeModels: { plan: settings.planModel, act: settings.actModel },
    ...(input.condenseProvider ? { condense: input.condenseProvider } : settings.condenseModel ? { condenseModel: settings.condenseModel } : {}),
  };
  const providers = sessionProviders(models, createHostProvider);
  const mcp = input.mcp;
  const fileSettings = settingsFiles(input.storageDir, input.cwd);
  const rules = () => vsCodePermissionRulesFor(settings, input.storageDir, input.cwd);
  for (const problem of fileSettings.problems) input.host.notify('warning', problem);
  // Not awaited: the task starts meanwhile; the permission rules are read again before each call.
  void askSettingsTrust(fileSettings.heldBack, input.storageDir, askSettingsTrustInWindow);
  const environment = await openSession({
    place: {
      cwd: input.cwd,
      ...(input.additionalRoots ? { additionalRoots: input.additionalRoots } : {}),
      ...(input.worktree ? { worktree: input.worktree } : {}),
      storageDir: input.storageDir,
    },
    providers,
    settings: {
      policy: input.livePolicy ?? settings.policy,
      maxIterations: settings.maxIterations,
      maxRepeatedCalls: settings.maxRepeatedCalls,
      commandPreviewTimeoutSeconds: settings.commandPreviewTimeoutSeconds,
      ...(settings.maxCost !== undefined ? { maxCost: settings.maxCost } : {}),
      autoCondenseAt: settings.autoCondenseAt,
      ...(settings.autoCondenseTokens !== undefined ? { autoCondenseTokens: settings.autoCondenseTokens } : {}),
      modelOverrides: settings.modelOverrides,
      checkpoints: settings.checkpoints,
      // Read again before each call: a rule added from the approval bar ("always allow") applies at once.
      permissions: rules,
      hooks: fileSettings.hooks,
      ...(settings.sandbox ? { sandbox: settings.sandbox } : {}),
      subagents: settings.subagents,
      // A workspace VS Code does not trust (Restricted Mode) never has its agents used.
      agents: {
        userDirs: [join(homedir(), '.claude', 'agents')],
        trust: (key, fingerprint) => (vscode.workspace.isTrusted ? new WorkspaceTrust({ storageDir: input.storageDir }).check(key, fingerprint) : 'denied'),
      },
      // A workspace VS Code does not trust never has its mode files used; the panel asks about them.
      modes: { trust: windowModeTrust(input.storageDir) },
      web: { ...settings.web, search: withSearchKeys(settings.web.search ?? { backend: 'auto' }, input.webSearchKeys ?? {}) },
      ...(input.disabledRules ? { disabledRules: input.disabledRules } : {}),
      ...(input.agentSkills ? { agentSkills: input.agentSkills } : {}),
    },
    ports: {
      // The task's commands reuse only the terminals its own commands opened.
      host: { ...input.host, processes: input.host.processes.forTask?.() ?? input.host.processes },
      // The keys in use and the MCP servers' credentials never reach the log, the model or the panel.
      redactor: keysInUseRedactor(models, mcp),
      hostEnvironment: () => editorEnvironment(input.cwd),
      ...(input.mentionSources ? { mentionSources: input.mentionSources } : {}),
      ...(mcp ? { mcp } : {}),
    },
  });
  // Mode files that could not be used are told by the panel's mode picker, once per window.
  for (const note of environment.modes.notes) input.host.notify('info', note);
  for (const problem of environment.agents.problems) input.host.notify('warning', problem);
  void askAgentsTrustInWindow(environment.agents.heldBack, input.storageDir);
  void askSkillsTrustInWindow(environment.agentSkills.refresh().workspace, input.storageDir, input.cwd);
  return environment;
}
