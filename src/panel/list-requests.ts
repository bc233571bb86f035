import type { ProviderName } from '../shared/protocol.js';
import type { PanelLists } from './panel-lists.js';
import type { PanelProviderSettings } from './panel-ports.js';

/** What the requests act on. */
interface ListRequestsDeps {
  readonly lists: PanelLists;
  readonly settings: PanelProviderSettings;
  /** Reads the rules list again for the shown task (its mode and files). */
  readonly readRules: () => void;
  /** Sends the panel state again: each request's result arrives with it. */
  readonly emitState: () => void;
}

/**
 * The panel's requests for lists and toggles: the provider's models, the base branches of a new
 * worktree, completions for the Task box, the rules files and Agent Skills turned on or off, and
 * the chat's auto-approve settings. Each does its part, then the state carries the result.
 */
export class ListRequests {
  constructor(private readonly deps: ListRequestsDeps) {}

  /** Turns a rules file on or off; the list and the shown task's next request follow. */
  async setRuleEnabled(label: string, enabled: boolean): Promise<void> {
    await this.deps.lists.setRuleEnabled(label, enabled);
    this.deps.readRules();
    this.deps.emitState();
  }

  /** Turns an Agent Skill on or off; the list and the tasks' next requests follow. */
  async setSkillEnabled(name: string, enabled: boolean): Promise<void> {
    await this.deps.lists.setSkillEnabled(name, enabled);
    this.deps.lists.readSkills();
    this.deps.emitState();
  }

  /** Completions for the command being typed at the start of the Task box. */
  suggestCommands(query: string): void {
    this.deps.lists.suggestCommands(query);
    this.deps.emitState();
  }

  /** Completions for the @-mention being typed. */
  async suggestMentions(query: string): Promise<void> {
    await this.deps.lists.suggestMentions(query);
    this.deps.emitState();
  }

  /** The local branches a new worktree can start from. */
  async listBaseBranches(): Promise<void> {
    await this.deps.lists.listBaseBranches();
    this.deps.emitState();
  }

  /** The models of the provider the Settings form names. */
  async listModels(provider: ProviderName, baseUrl: string): Promise<void> {
    await this.deps.lists.listModels(provider, baseUrl);
    this.deps.emitState();
  }

  /** Writes the chat's auto-approve toggles and limits to the settings (the change event refreshes the panel too). */
  async saveAutoApprove(change: Parameters<PanelProviderSettings['saveAutoApprove']>[0]): Promise<void> {
    await this.deps.settings.saveAutoApprove(change);
    this.deps.emitState();
  }
}
