import type { TaskEnvironment } from '../core/session/task-environment.js';
import type { WorkspaceFolderInput } from '../core/workspace/workspace-roots.js';
import type { McpHub } from '../core/mcp/mcp-hub.js';
import type { McpTaskWiring } from '../core/tools/mcp-tools.js';
import type { ApprovalPort, ApprovalRequest, QuestionPort } from '../core/ports.js';
import type { TaskWorktree, WorktreeSettings } from '../core/worktrees/worktree-types.js';
import type { PermissionRule } from '../core/permissions/permission-rules.js';
import type {
  AutoApproveView,
  McpPanelState,
  ModelList,
  ProviderSettingsView,
  ProviderName,
  ReasoningEffortName,
  ToolProtocolName,
} from '../shared/protocol.js';
import type { Event } from './event-emitter.js';

// What the panel backend needs from the editor it runs in. VS Code implements these in
// src/host/vscode; tests implement them in plain Node.

/** What the Settings view saves; the key goes to the key store, never to settings. */
export interface ProviderChoice {
  readonly provider: ProviderName;
  readonly model: string;
  readonly baseUrl: string;
  /** Omitted: the configured protocol stays as it is. */
  readonly toolProtocol?: ToolProtocolName;
  /** Omitted: as configured. */
  readonly planModel?: string;
  readonly actModel?: string;
  /** Omitted: as configured; '': no profile for that mode. */
  readonly planProfile?: string;
  readonly actProfile?: string;
  readonly reasoningEffort?: ReasoningEffortName;
  /** Also keep the choice as the API profile of this name. */
  readonly saveAsProfile?: string;
}

/** What a task's environment is built for besides its folder. */
export interface TaskPlace {
  /** The task's own approval and question ports (the panel routes each task's waits to that task); absent: the host's. */
  readonly asks?: { readonly approvals: ApprovalPort; readonly questions: QuestionPort };
  /** The git worktree the folder is in, when the task has one of its own (docs/parallel-tasks.md). */
  readonly worktree?: TaskWorktree;
}

/** The provider settings and keys, and the task environments built from them. */
export interface PanelProviderSettings {
  /** The settings as the panel shows them before the key store was asked (hasApiKey false). */
  basics(): ProviderSettingsView;
  /** The settings as the panel shows them, with whether a key is stored and what is missing. */
  view(): Promise<ProviderSettingsView>;
  /** Saves the choice; an `apiKey` is stored (an empty one removes the stored key). */
  save(choice: ProviderChoice & { readonly apiKey?: string }): Promise<void>;
  /**
   * A task environment for the workspace folder from the current settings; undefined when the
   * provider setup is incomplete (the Settings view says what is missing).
   */
  createEnvironment(cwd: string, additionalRoots?: readonly WorkspaceFolderInput[], place?: TaskPlace): Promise<TaskEnvironment | undefined>;
  /** `smith.worktree.*`: where worktrees are made and which untracked files they get (absent: the defaults). */
  worktreeSettings?(): WorktreeSettings;
  /** `smith.maxTotalCost`: US dollars the tasks the panel holds may cost together before each asks whether to go on; undefined: no limit. Read at every check. */
  maxTotalCost?(): number | undefined;
  /** The models a provider offers (its server's list where it has one, else the catalogue), with the stored key. */
  listModels(provider: ProviderName, baseUrl: string): Promise<ModelList>;
  /** The auto-approve toggles and the limits per task as the settings hold them now. */
  autoApprove(): AutoApproveView;
  /** Writes changed toggles or limits to the user's settings (`maxCost` 0 removes the limit); tasks read the toggles before each tool call. */
  saveAutoApprove(change: Partial<Omit<AutoApproveView, 'maxCost'> & { readonly maxCost: number }>): Promise<void>;
  /** Labels of the rules files the user turned off. */
  disabledRules(): readonly string[];
  /** The permission rules a task in this folder runs with (absent: none), so a command file the Read rules withhold is not sent. */
  permissionRules?(cwd: string): readonly PermissionRule[];
  saveDisabledRules(labels: readonly string[]): Promise<void>;
  /** Names of the Agent Skills the user turned off (absent: none). */
  disabledSkills?(): readonly string[];
  /** Absent: the toggles cannot be saved here. */
  saveDisabledSkills?(names: readonly string[]): Promise<void>;
  /** The skills folders the settings add (absent: none). */
  skillFolders?(): readonly string[];
  /** Whether the workspace's skills are trusted for these exact files (absent: not trusted); untrusted ones are not offered. */
  workspaceSkillsTrusted?(cwd: string, fingerprint: string): boolean;
  /** Fires when the settings or a stored key changed. */
  readonly onDidChange: Event<void>;
}

/** The editor's review of proposed edits (VS Code's diff editor). */
export interface EditReview {
  /** Shows a write_to_file's content while the model is still writing it. */
  streamPartial(absolutePath: string, partialContent: string): void;
  /** Opens the review of a proposed edit for approval. */
  present(absolutePath: string, proposal: NonNullable<ApprovalRequest['proposal']>): Promise<void>;
  /** The user approved: closes the review; `editedContent` is set when they changed the proposal. */
  accept(absolutePath: string): Promise<{ readonly editedContent?: string }>;
  /** The user rejected: closes the review. */
  reject(absolutePath: string): Promise<void>;
  /** Closes streamed reviews that never reached an approval (with `all`, every review). */
  discard(options?: { readonly all?: boolean }): Promise<void>;
}

/** The window's MCP servers as the panel shows them and tasks use them. */
export interface McpPanelSource {
  /** Wired into every task's environment; reads the hub live, so open tasks see changes. */
  readonly wiring: McpTaskWiring;
  /** The servers themselves (their prompts are slash commands). */
  readonly hub?: McpHub;
  panelState(): McpPanelState;
  /** Fires after any change of a server's status, lists or settings, or of the config problems. */
  readonly onDidChange: Event<void>;
}

/** One file of a comparison: its content at the checkpoint (undefined: it did not exist then) against the file now. */
export interface ComparedFile {
  /** Workspace-relative, as the checkpoint names it. */
  readonly path: string;
  readonly absolutePath: string;
  readonly before: () => string | undefined;
  /** False when the file was deleted since the checkpoint. */
  readonly existsNow: boolean;
  /** The right side's content, when it is not the file as it is now (a later checkpoint's); undefined: it did not exist. */
  readonly after?: () => string | undefined;
}

/** What the panel's "Bisect…" needs from the editor (VS Code: an input box, a progress notification, a message). */
export interface BisectViews {
  /** Asks for the test command, `value` filled in; undefined when the user cancelled. */
  askTestCommand(value: string): Promise<string | undefined>;
  /** The command last used in the workspace at `cwd`, and remembering a new one. */
  rememberedCommand(cwd: string): string | undefined;
  remember(cwd: string, command: string): Promise<void>;
  /** Runs `work` with a cancellable progress notification; `report` shows a line. */
  withProgress<T>(title: string, work: (report: (line: string) => void, signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Shows a bisect's result with its actions; resolves with the one chosen (undefined: none). */
  showResult(message: string, found: boolean, actions: readonly string[]): Promise<string | undefined>;
}

/** The editor's dialogs and views the actions on the open task use (checkpoints, screenshots). */
export interface CheckpointViews {
  /** Shows the files side by side (VS Code: its multi-file diff editor); `title` names the comparison. */
  showChanges(title: string, files: readonly ComparedFile[]): Promise<void>;
  /** Asks before something that loses work; true when the user chose `action`. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  /** Opens a file in an editor tab (an image in the editor's image preview). */
  openFile(absolutePath: string): Promise<void>;
}
