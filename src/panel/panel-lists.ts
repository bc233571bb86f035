import type { McpHub } from '../core/mcp/mcp-hub.js';
import { baseBranches, WorktreeError } from '../core/worktrees/worktree-tasks.js';
import type { TaskEvent } from '../core/log/events.js';
import type { MentionSuggestion, ModelList, PanelState, ProviderName } from '../shared/protocol.js';
import { existsSync } from 'node:fs';
import { MentionSuggestions } from '../core/context/mention-completions.js';
import { WorkspaceRootError, WorkspaceRoots, type WorkspaceFolderInput } from '../core/workspace/workspace-roots.js';
import type { PanelProviderSettings } from './panel-ports.js';
import { panelRules } from './rules-list.js';
import { panelSkills } from './skills-list.js';
import { readGuardOf } from '../core/permissions/read-rule-guard.js';
import { expandSlashInput, slashSuggestions, type SlashInputs } from './slash-input.js';

/** What the lists are read from. */
interface PanelListsDeps {
  readonly storageDir: string;
  readonly cwd: () => string | undefined;
  /** The other folders of a multi-root workspace. */
  readonly additionalRoots?: () => readonly WorkspaceFolderInput[];
  readonly settings: PanelProviderSettings;
  readonly mcp: () => McpHub | undefined;
}

type Completions = { readonly query: string; readonly items: readonly MentionSuggestion[] };

/**
 * The lists the panel asks for as the user works: the provider's models (Settings view), the
 * rules files with their toggles, and completions for `@`-mentions and `/commands` in the Task
 * box. Each is kept for the state until it is asked for again.
 */
export class PanelLists {
  private models: ModelList | undefined;
  private bases: PanelState['baseBranches'];
  private rules: PanelState['rules'];
  private skills: PanelState['agentSkills'];
  private mentions: Completions | undefined;
  private commands: Completions | undefined;
  private readonly mentionSource = new MentionSuggestions();

  constructor(private readonly deps: PanelListsDeps) {}

  /** The lists' part of the panel state. */
  state(): Pick<PanelState, 'models' | 'baseBranches' | 'rules' | 'agentSkills' | 'mentionSuggestions' | 'commandSuggestions'> {
    return {
      ...(this.models ? { models: this.models } : {}),
      ...(this.bases ? { baseBranches: this.bases } : {}),
      ...(this.rules ? { rules: this.rules } : {}),
      ...(this.skills ? { agentSkills: this.skills } : {}),
      ...(this.mentions ? { mentionSuggestions: this.mentions } : {}),
      ...(this.commands ? { commandSuggestions: this.commands } : {}),
    };
  }

  async listModels(provider: ProviderName, baseUrl: string): Promise<void> {
    this.models = await this.deps.settings.listModels(provider, baseUrl);
  }

  /** Lists the workspace repository's local branches (a new worktree's possible bases); a workspace outside git gives the reason instead. */
  async listBaseBranches(): Promise<void> {
    const cwd = this.deps.cwd();
    if (!cwd) {
      this.bases = { branches: [], problem: 'Open a folder first: Smith works inside a workspace folder.' };
      return;
    }
    try {
      this.bases = await baseBranches(cwd);
    } catch (error) {
      if (!(error instanceof WorktreeError)) throw error;
      this.bases = { branches: [], problem: error.message };
    }
  }

  async suggestMentions(query: string): Promise<void> {
    this.mentions = { query, items: await this.mentionSource.suggest(this.workspace(), query) };
  }

  suggestCommands(query: string): void {
    this.commands = { query, items: slashSuggestions(query, this.slashInputs()) };
  }

  /** Reads the rules files again, as the open task (its mode and the files it touched) would use them. */
  readRules(modeSlug: string, events: readonly TaskEvent[]): void {
    this.rules = panelRules({ storageDir: this.deps.storageDir, cwd: this.deps.cwd(), modeSlug, events, disabled: this.deps.settings.disabledRules() });
  }

  /** Turns a rules file on or off in the settings. */
  async setRuleEnabled(label: string, enabled: boolean): Promise<void> {
    const disabled = new Set(this.deps.settings.disabledRules());
    if (enabled) disabled.delete(label);
    else disabled.add(label);
    await this.deps.settings.saveDisabledRules([...disabled]);
  }

  /** Reads the skills folders again, as a new request would offer them. */
  readSkills(): void {
    const cwd = this.deps.cwd();
    const { settings } = this.deps;
    this.skills = cwd
      ? panelSkills({
          workspaceRoots: [cwd, ...(this.deps.additionalRoots?.() ?? []).map((root) => root.path)],
          storageDir: this.deps.storageDir,
          settingFolders: settings.skillFolders?.() ?? [],
          disabled: new Set(settings.disabledSkills?.() ?? []),
          workspaceTrusted: (fingerprint) => settings.workspaceSkillsTrusted?.(cwd, fingerprint) ?? false,
        })
      : { skills: [], notes: [] };
  }

  /** Turns an Agent Skill on or off (by name) in the settings. */
  async setSkillEnabled(name: string, enabled: boolean): Promise<void> {
    const { settings } = this.deps;
    if (!settings.saveDisabledSkills) throw new Error('Skills cannot be turned off here.');
    const disabled = new Set(settings.disabledSkills?.() ?? []);
    if (enabled) disabled.delete(name);
    else disabled.add(name);
    await settings.saveDisabledSkills([...disabled].sort());
  }

  /** The text a `/command` stands for (other text as it is). */
  expandSlash(text: string): Promise<string> {
    return expandSlashInput(text, { ...this.slashInputs(), ...this.readGuard() });
  }

  /** The workspace's folders; a folder that went missing is left out of the completions. */
  private workspace(): WorkspaceRoots | undefined {
    const cwd = this.deps.cwd();
    if (!cwd) return undefined;
    const others = this.deps.additionalRoots?.() ?? [];
    try {
      return WorkspaceRoots.open(cwd, others);
    } catch (error) {
      if (error instanceof WorkspaceRootError)
        return WorkspaceRoots.open(
          cwd,
          others.filter((folder) => existsSync(folder.path)),
        );
      throw error;
    }
  }

  private slashInputs(): SlashInputs {
    return { storageDir: this.deps.storageDir, cwd: this.deps.cwd(), mcp: this.deps.mcp() };
  }

  /** The Read rules a command file is judged by when it is sent (read then: the settings may have changed). */
  private readGuard(): Pick<SlashInputs, 'readGuard'> {
    const cwd = this.deps.cwd();
    const rules = cwd && this.deps.settings.permissionRules ? this.deps.settings.permissionRules(cwd) : [];
    if (!cwd || rules.length === 0) return {};
    const workspace = this.workspace();
    return { readGuard: readGuardOf(rules, { cwd, ...(workspace ? { workspace } : {}) }) };
  }
}
