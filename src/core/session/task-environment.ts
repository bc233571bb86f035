import { DEFAULT_CONTEXT_POLICY } from '../context/context-window.js';
import type { TaskWorktree } from '../worktrees/worktree-types.js';
import { join } from 'node:path';
import type { Host } from '../ports.js';
import { CommandSessions } from '../process/command-sessions.js';
import { findModelInfo, modelInfo, type ModelInfo, type ModelInfoOverrides } from '../providers/model-catalog.js';
import type { ModelFacts } from '../providers/model-facts.js';
import { learnModelFacts } from '../providers/provider-models.js';
import type { ApiProvider } from '../providers/types.js';
import type { SecretRedactor } from '../secrets/secret-redactor.js';
import type { PlanAct } from '../../shared/plan-act.js';
import { loadModes, type ModeCatalog } from '../modes/mode-loader.js';
import type { AutoApprovePolicy } from '../log/approval-policy.js';
import type { TaskOptions } from '../task/task.js';
import { askFollowupQuestionTool } from '../tools/ask-followup-question.js';
import { attemptCompletionTool } from '../tools/attempt-completion.js';
import { condenseTool } from '../tools/condense.js';
import { createExecuteCommandTool } from '../tools/execute-command.js';
import { listCodeDefinitionNamesTool } from '../tools/list-code-definition-names.js';
import { listFilesTool } from '../tools/list-files.js';
import { newRuleTool } from '../tools/new-rule.js';
import { newTaskTool } from '../tools/new-task.js';
import { planModeRespondTool } from '../tools/plan-mode-respond.js';
import { readFileTool } from '../tools/read-file.js';
import { replaceInFileTool } from '../tools/replace-in-file.js';
import { editNotebookTool } from '../tools/edit-notebook.js';
import { searchFilesTool } from '../tools/search-files.js';
import { ToolRegistry } from '../tool-kit/tool-registry.js';
import type { ToolHandler } from '../tool-kit/tool-spec.js';
import { updateTodoListTool } from '../tools/update-todo-list.js';
import { writeToFileTool } from '../tools/write-to-file.js';
import { formatListing, listWorkspaceFiles } from '../workspace/file-listing.js';
import { listAllRoots } from '../workspace/root-listing.js';
import { loadWorkspaceIgnore } from '../workspace/smith-ignore.js';
import { WorkspaceRoots, type WorkspaceFolderInput } from '../workspace/workspace-roots.js';
import { workspaceFoldersSection } from '../prompt/workspace-folders-section.js';
import { RecentEdits } from './recent-edits.js';
import { openWorkspaceCheckpoints, type CheckpointSettings } from '../checkpoints/open-checkpoint-store.js';
import { expandMentions, type MentionEnvironment } from '../context/mentions.js';
import { fetchPageAsMarkdown } from '../context/web-page.js';
import { searchResultDenyRules, webDenyRules, type PermissionRule } from '../permissions/permission-rules.js';
import type { WebAccessPolicy } from '../web/web-access.js';
import { readGuardOf } from '../permissions/read-rule-guard.js';
import type { HookSettings } from '../hooks/hooks.js';
import { confineCommands, type SandboxRequest } from '../process/task-sandbox.js';
import { BrowserSession } from '../browser/browser-session.js';
import type { WebToolSettings } from '../browser/browser-settings.js';
import { createBrowserActionTool } from '../tools/browser-action.js';
import { createWebFetchTool } from '../tools/web-fetch.js';
import { createWebSearchTool } from '../tools/web-search.js';
import type { ResultPolicy } from '../web-search/result-filter.js';
import { type WebSearchBackend, WebSearchFailure } from '../web-search/search-backend.js';
import { chooseSearchBackend } from '../web-search/web-search-settings.js';
import { DEFAULT_SUBAGENT_SETTINGS, runSubagents, type SubagentSettings } from '../subagents/subagent-runner.js';
import { createUseSubagentsTool } from '../tools/use-subagents.js';
import { loadAgents, type AgentCatalog } from '../subagents/agent-files.js';
import { delegatesListing } from '../subagents/delegates-listing.js';
import type { WorkspaceTrustCheck } from '../mcp/workspace-trust.js';
import { SkillSession } from '../skills/skill-session.js';
import { createUseSkillTool } from '../tools/use-skill.js';
import { WorkspaceNotebooks } from '../notebooks/workspace-notebooks.js';

/** What a host supplies to set up tasks in one workspace. */
export interface TaskEnvironmentInput {
  /** The primary workspace folder: relative paths resolve here, commands run here. */
  readonly cwd: string;
  /** The git worktree `cwd` is in, when the task has one of its own (docs/parallel-tasks.md). */
  readonly worktree?: TaskWorktree;
  /** The other folders of a multi-root workspace; one that does not exist is a WorkspaceRootError. */
  readonly additionalRoots?: readonly WorkspaceFolderInput[];
  /** Smith's own storage: tasks/, modes/, rules/ live under it. */
  readonly storageDir: string;
  readonly host: Host;
  readonly provider: ApiProvider;
  readonly providerForMode?: Partial<Record<PlanAct, ApiProvider>>;
  /** A function is read before each tool call (the panel's auto-approve toggles apply at once). */
  readonly policy: AutoApprovePolicy | (() => AutoApprovePolicy);
  readonly maxIterations: number;
  /** Identical calls in a row before the model is told it repeats itself (0: never). */
  readonly maxRepeatedCalls?: number;
  readonly commandPreviewTimeoutSeconds?: number;
  /** US dollars a run may cost before Smith stops and asks. */
  readonly maxCost?: number;
  /** The share of the model's window (0–1) at which the history is condensed (default 0.8). */
  readonly autoCondenseAt?: number;
  /** A request size in tokens at which the history is condensed (the lower trigger wins). */
  readonly autoCondenseTokens?: number;
  /** The model that writes summaries; absent: each turn's own. */
  readonly condenseProvider?: ApiProvider;
  /** Labels of the rules files the user turned off, read before each request. */
  readonly disabledRules?: () => ReadonlySet<string>;
  /** The user's window and prices for models the catalogue does not know (or to correct it). */
  readonly modelOverrides?: ModelInfoOverrides;
  /** Tools beyond the built-in ones (e.g. MCP tools). */
  readonly extraTools?: readonly ToolHandler[];
  /** System-prompt sections from the host (e.g. connected MCP servers). */
  readonly extraPromptSections?: () => readonly string[];
  /** Tools to leave out of each turn's prompt (e.g. MCP discovery tools outside discovery mode). */
  readonly hiddenTools?: () => ReadonlySet<string>;
  /** Waits before a request for tools still starting (the MCP servers' first connections, each at most its timeout). */
  readonly waitForTools?: (signal: AbortSignal) => Promise<void>;
  /** Environment sections from the host (e.g. the editor's visible files). */
  readonly hostEnvironment?: () => readonly string[];
  /** The user's secrets (API keys, MCP credentials), redacted from the log, the model's requests and the UI. */
  readonly redactor?: SecretRedactor;
  /** Checkpoints of the workspace after each step (on unless `enabled: false`). */
  readonly checkpoints?: CheckpointSettings;
  /** The user's permission rules (deny wins, then ask, then allow). */
  /** A function is read before each call, so a rule added while the task runs ("always allow") applies at once. */
  readonly permissions?: readonly PermissionRule[] | (() => readonly PermissionRule[]);
  /** The user's hooks. */
  readonly hooks?: HookSettings;
  /** Commands run confined by bubblewrap (see task-sandbox.ts). */
  readonly sandbox?: SandboxRequest;
  /** How many sub-agents run at once and how many requests each may make (default DEFAULT_SUBAGENT_SETTINGS). */
  readonly subagents?: SubagentSettings;
  /**
   * Where custom agents are read (agent-files.ts): the user's folders besides `<storage>/agents`
   * (`~/.claude/agents`), and whether the workspace's agent files are trusted (absent: they are).
   */
  readonly agents?: { readonly userDirs?: readonly string[]; readonly trust?: WorkspaceTrustCheck };
  /** Whether the workspace's mode files (`.roomodes`, `.smith/modes`) are trusted (mode-loader.ts; absent: they are). */
  readonly modes?: { readonly trust?: WorkspaceTrustCheck };
  /** A provider for another model id on the main provider, for agents whose `model:` names one. */
  readonly withModel?: (modelId: string) => ApiProvider;
  /** What only an editor can attach to a message: `@problems`, `@terminal`. */
  readonly mentionSources?: Pick<MentionEnvironment, 'problems' | 'terminal'>;
  /** The browser browser_action drives and the hosts the web tools never open. */
  readonly web?: WebToolSettings;
  /** Where Agent Skills are found beyond the usual folders, which are off, and whether the workspace's may be offered (absent: not trusted). */
  readonly agentSkills?: AgentSkillSettings;
}

/** A host's choices about Agent Skills (see skill-locations.ts for the folders always read). */
export interface AgentSkillSettings {
  /** `--skill-dir` folders of this run. */
  readonly skillDirs?: readonly string[];
  /** Folders the settings add. */
  readonly settingFolders?: readonly string[];
  /** Names the user turned off, read before each request. */
  readonly disabled?: () => ReadonlySet<string>;
  /** Whether the workspace's skills are trusted for these exact files (see WorkspaceSkills), read before each request. */
  readonly workspaceTrusted: (fingerprint: string) => boolean;
  /** The home folder whose skills folders are read (default: the user's). */
  readonly homeDir?: string;
}

/** The per-workspace pieces a task runs with; dispose() ends commands still running. */
export interface TaskEnvironment {
  readonly options: TaskOptions;
  readonly modes: ModeCatalog;
  /** The custom agents, what was wrong with their files, and the workspace's agents waiting for trust. */
  readonly agents: AgentCatalog;
  /** The workspace's Agent Skills (read again before each request). */
  readonly agentSkills: SkillSession;
  readonly commands: CommandSessions;
  /** The task's browser (browser_action); it starts on the first launch. */
  readonly browser: BrowserSession;
  dispose(): Promise<void>;
}

/** Entries in the first request's workspace listing. */
const FIRST_LISTING_LIMIT = 200;

/** The task's browser (started on its first launch; it holds where the web tools may go) and web_search's backend (absent: no web_search). */
interface WebTools {
  readonly browser: BrowserSession;
  readonly search?: { readonly backend: WebSearchBackend; readonly results: ResultPolicy };
}

/** The backend of a tool list built for its specs alone (the catalogue, the prompt's size). */
const SPEC_ONLY_SEARCH: WebSearchBackend = {
  name: 'searxng',
  label: 'no backend',
  destination: 'nowhere',
  search: () => Promise.reject(new WebSearchFailure('no web search backend is set up')),
};

/**
 * The tools every task has, in the order the prompt lists them; with use_subagents (added by
 * createTaskEnvironment) and the MCP tools (mcpToolsFor, added by the host) they are the tools of
 * the catalogue (src/shared/tool-catalogue.ts). Given no sessions, a tool list for its specs alone.
 */
export function workspaceTools(
  commands = new CommandSessions(),
  web: WebTools = { browser: new BrowserSession(), search: { backend: SPEC_ONLY_SEARCH, results: {} } },
  skills: SkillSession = new SkillSession({ workspaceRoots: [], storageDir: '', workspaceTrusted: () => false }),
): ToolHandler[] {
  return [
    readFileTool,
    writeToFileTool,
    replaceInFileTool,
    editNotebookTool,
    listFilesTool,
    searchFilesTool,
    listCodeDefinitionNamesTool,
    createExecuteCommandTool(commands),
    createBrowserActionTool(web.browser),
    createWebFetchTool(web.browser.access),
    ...(web.search ? [createWebSearchTool(web.search.backend, web.search.results)] : []),
    askFollowupQuestionTool,
    attemptCompletionTool,
    planModeRespondTool,
    newTaskTool,
    newRuleTool,
    condenseTool,
    updateTodoListTool,
    createUseSkillTool(skills),
  ];
}

/** Builds the TaskOptions both hosts use: all tools, .smithignore, modes, rules, environment details. */
export async function createTaskEnvironment(input: TaskEnvironmentInput): Promise<TaskEnvironment> {
  const workspace = WorkspaceRoots.open(input.cwd, input.additionalRoots ?? []);
  const ignore = await loadWorkspaceIgnore(workspace);
  const others = workspace.all.slice(1).map((root) => root.path);
  const modes = loadModes({
    storageDir: input.storageDir,
    workspaceRoot: input.cwd,
    ...(others.length > 0 ? { otherRoots: others } : {}),
    ...(input.modes?.trust ? { trust: input.modes.trust } : {}),
  });
  const commands = new CommandSessions({ now: () => input.host.clock.now() });
  const recentEdits = new RecentEdits();
  // One browser per task environment; it closes when the task ends or is cancelled, and with the environment.
  const access = webAccessPolicy(input);
  const browser = new BrowserSession(input.web?.browser, access);
  // web_search is offered only with a backend: off, or nothing set up for auto, leaves it out of every prompt.
  const search = chooseSearchBackend(input.web?.search, input.provider.config, access);
  // The search services' keys are kept out of the log, the model and the output as the providers' are.
  input.redactor?.set('web-search', Object.values(input.web?.search?.keys ?? {}));
  if (search.problem) input.host.notify('warning', search.problem);
  const web: WebTools = { browser, ...(search.backend ? { search: { backend: search.backend, results: resultPolicy(input) } } : {}) };
  const subagents = input.subagents ?? DEFAULT_SUBAGENT_SETTINGS;
  const agents = loadAgents({
    userDirs: [...(input.agents?.userDirs ?? []), join(input.storageDir, 'agents')],
    workspaceRoot: input.cwd,
    ...(input.agents?.trust ? { trust: input.agents.trust } : {}),
  });
  // Children are built from this task's options (defined below) when a call starts them.
  const useSubagents = createUseSubagentsTool(
    (requests, context) =>
      runSubagents(
        {
          requests,
          parentTaskId: context.taskId,
          signal: context.signal,
          progress: context.progress,
          ...(context.subagentStarted ? { started: context.subagentStarted } : {}),
          ...(context.costs ? { costs: context.costs } : {}),
        },
        options,
        subagents,
        { agents: () => agents.agents, ...(input.withModel ? { withModel: input.withModel } : {}) },
      ),
    { maxParallel: () => subagents.maxParallel, listing: () => delegatesListing(agents.agents, modes.modes, withheldFile(input, workspace)) },
  );
  const agentSkills = new SkillSession({
    workspaceRoots: workspace.all.map((root) => root.path),
    storageDir: input.storageDir,
    ...input.agentSkills,
    workspaceTrusted: input.agentSkills?.workspaceTrusted ?? (() => false),
  });
  const tools = new ToolRegistry([...workspaceTools(commands, web, agentSkills), useSubagents, ...(input.extraTools ?? [])]);
  // Looked for while the rest is set up; the first request waits for the answer.
  const notebooks = new WorkspaceNotebooks(workspace, ignore);
  const confined = await confineCommands(
    input.sandbox,
    workspace.all.map((root) => root.path),
    ignore,
    input.host,
    input.policy,
  );
  const checkpoints = openWorkspaceCheckpoints(workspace, {
    storageDir: input.storageDir,
    ignore,
    settings: input.checkpoints,
    notify: (message) => input.host.notify('warning', message),
  });
  // What the providers' servers say about their models (window, prices), so cost and context management need no numbers typed.
  const learned = await learnModelFacts(
    [input.provider, ...Object.values(input.providerForMode ?? {}), ...(input.condenseProvider ? [input.condenseProvider] : [])],
    input.storageDir,
  );
  const options: TaskOptions = {
    storageDir: input.storageDir,
    cwd: input.cwd,
    ...(input.worktree ? { worktree: input.worktree } : {}),
    ...(workspace.isMultiRoot ? { workspace } : {}),
    host: confined.host,
    tools,
    provider: input.provider,
    ...(input.providerForMode ? { providerForMode: input.providerForMode } : {}),
    modes: modes.modes,
    agentSkills,
    globalRulesDir: join(input.storageDir, 'rules'),
    ...(input.disabledRules ? { disabledRules: input.disabledRules } : {}),
    policy: confined.policy,
    maxIterations: input.maxIterations,
    ...(input.maxRepeatedCalls !== undefined ? { maxRepeatedCalls: input.maxRepeatedCalls } : {}),
    ...(input.commandPreviewTimeoutSeconds !== undefined ? { commandPreviewTimeoutSeconds: input.commandPreviewTimeoutSeconds } : {}),
    ...(input.maxCost !== undefined ? { maxCost: input.maxCost } : {}),
    ...(input.autoCondenseAt !== undefined || input.autoCondenseTokens !== undefined
      ? {
          contextPolicy: {
            autoCondenseThreshold: input.autoCondenseAt ?? DEFAULT_CONTEXT_POLICY.autoCondenseThreshold,
            ...(input.autoCondenseTokens !== undefined ? { autoCondenseTokens: input.autoCondenseTokens } : {}),
          },
        }
      : {}),
    ...(input.condenseProvider ? { condenseProvider: input.condenseProvider } : {}),
    ignore,
    ...(workspace.isMultiRoot || input.extraPromptSections
      ? { extraPromptSections: () => [workspaceFoldersSection(workspace), ...(input.extraPromptSections?.() ?? [])].filter((s) => s !== '') }
      : {}),
    ...(input.hiddenTools ? { hiddenTools: input.hiddenTools } : {}),
    waitForTools: async (signal) => {
      await notebooks.scanned;
      await input.waitForTools?.(signal);
    },
    workspaceHasNotebooks: () => notebooks.found,
    listWorkspace: async () =>
      formatListing(
        workspace.isMultiRoot
          ? await listAllRoots(workspace, { recursive: true, limit: FIRST_LISTING_LIMIT, ignore })
          : await listWorkspaceFiles({ root: input.cwd, dir: input.cwd, recursive: true, limit: FIRST_LISTING_LIMIT, ignore }),
      ),
    environmentSections: () => [...(input.hostEnvironment?.() ?? []), recentEdits.summary(), commands.runningSummary()].filter((s) => s !== ''),
    onEvent: (event) => {
      recentEdits.observe(event);
      if (event.type === 'task_completed' || event.type === 'task_aborted') void browser.close();
    },
    modelInfo: (provider) => knownModelInfo(provider, input.modelOverrides ?? {}, learned.get(provider)),
    ...(input.redactor ? { redactor: input.redactor } : {}),
    ...(checkpoints ? { checkpoints } : {}),
    ...(input.permissions && (typeof input.permissions === 'function' || input.permissions.length > 0) ? { permissions: input.permissions } : {}),
    ...(input.hooks && Object.keys(input.hooks).length > 0 ? { hooks: input.hooks } : {}),
    expandMentions: (text) => {
      const place = { cwd: input.cwd, ...(workspace.isMultiRoot ? { workspace } : {}) };
      return expandMentions(text, {
        ...place,
        ignore,
        readGuard: readGuardOf(input.permissions, place),
        fetchPage: (url, signal) => fetchPageAsMarkdown(url, { policy: access, ...(signal ? { signal } : {}) }),
        ...input.mentionSources,
      });
    },
  };
  const dispose = async () => {
    checkpoints?.flushStatCache();
    await commands.killAll();
    await browser.close();
    await confined.dispose();
  };
  return { options, modes, agents, agentSkills, commands, browser, dispose };
}

/** Whether the user's Read rules keep a file's content from the model (judged as read_file would be). */
function withheldFile(input: TaskEnvironmentInput, workspace: WorkspaceRoots): (path: string) => boolean {
  const place = { cwd: input.cwd, ...(workspace.isMultiRoot ? { workspace } : {}) };
  return (path) => readGuardOf(input.permissions, place).refusal(path) !== undefined;
}

/**
 * Where web_fetch, @url mentions and the browser may go: not to the deny list's hosts nor those of
 * WebFetch(domain:…) deny rules, and under a sandbox that keeps commands off the network, only to
 * the hosts commands may reach.
 */
function webAccessPolicy(input: TaskEnvironmentInput): WebAccessPolicy {
  const permissions = input.permissions;
  return {
    ...(input.web?.deniedDomains ? { deniedDomains: input.web.deniedDomains } : {}),
    ...(permissions ? { denyRules: () => webDenyRules(typeof permissions === 'function' ? permissions() : permissions) } : {}),
    ...(input.sandbox && !input.sandbox.network ? { sandboxAllowedHosts: input.sandbox.allowedHosts } : {}),
  };
}

/** Which result hosts web_search drops: the deny list's and those of WebFetch(domain:…) and WebSearch(domain:…) deny rules. */
function resultPolicy(input: TaskEnvironmentInput): ResultPolicy {
  const permissions = input.permissions;
  return {
    ...(input.web?.deniedDomains ? { deniedDomains: input.web.deniedDomains } : {}),
    ...(permissions ? { denyRules: () => searchResultDenyRules(typeof permissions === 'function' ? permissions() : permissions) } : {}),
  };
}

/**
 * A model's limits and prices when they are known: from the user's own settings, what the
 * provider's server told (`discovered`), or the catalogue. Unknown models get no cost and no
 * automatic context management rather than guesses.
 */
export function knownModelInfo(provider: ApiProvider, overrides: ModelInfoOverrides, discovered?: ModelFacts): ModelInfo | undefined {
  const userGaveLimits =
    overrides.contextWindow !== undefined ||
    overrides.inputPrice !== undefined ||
    overrides.outputPrice !== undefined ||
    overrides.supportsImages !== undefined;
  if (!userGaveLimits && !discovered && !findModelInfo(provider.id, provider.modelId)) return undefined;
  return modelInfo(provider.id, provider.modelId, overrides, discovered);
}
