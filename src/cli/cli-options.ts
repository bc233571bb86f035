import type { ProviderId, ToolProtocol } from '../core/providers/types.js';
import type { PlanAct } from '../shared/plan-act.js';
import type { OpenAiApi } from '../shared/provider-schemas.js';
import type { ModelInfoOverrides } from '../core/providers/model-catalog.js';
import type { WebToolSettings } from '../core/browser/browser-settings.js';

/** The CLI's options after validation. */
export interface CliOptions {
  /** The task to run; with --resume, the new message the resumed task continues with. */
  readonly task?: string;
  readonly cwd: string;
  /** --worktree [NAME] [--worktree-base BRANCH]: the task runs in a new git worktree (docs/parallel-tasks.md). */
  readonly worktree?: { readonly name?: string; readonly base?: string };
  /** --add-dir DIR (repeatable): more folders of the workspace beside --cwd. */
  readonly addDirs: readonly string[];
  /** --skill-dir DIR (repeatable): more folders of Agent Skills, before the usual ones. */
  readonly skillDirs: readonly string[];
  readonly provider?: ProviderId;
  /** --profile NAME: an API profile from the user's settings file; the flags win over its fields. */
  readonly profile?: string;
  /** --plan-profile / --act-profile NAME: the API profile a mode runs with (its provider, model and key). */
  readonly modeProfiles: { readonly plan?: string; readonly act?: string };
  /** --condense-profile NAME / --condense-model ID: who writes the summary when the history is condensed. */
  readonly condenseProfile?: string;
  readonly condenseModel?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly reasoningEffort?: 'low' | 'medium' | 'high';
  /** xml (default) or the vendor's native tool calling. */
  readonly toolProtocol?: ToolProtocol;
  /** --openai-api: Chat Completions or the Responses API, over the model catalogue's choice. */
  readonly openAiApi?: OpenAiApi;
  /** For models the catalogue does not know (openai-compatible): window and prices per million tokens. */
  readonly modelOverrides: ModelInfoOverrides;
  /** --idle-timeout in milliseconds: a request receiving no byte for this long is retried; 0 turns it off. */
  readonly idleTimeoutMs?: number;
  readonly yes: boolean;
  readonly autoApprove: readonly AutoApproveFlag[];
  readonly allowOutsideWorkspace: boolean;
  /** --max-auto-approvals N: after N auto-approved calls in a row, ask once anyway (0: no cap). */
  readonly maxConsecutive: number;
  /** --max-subagents N: sub-agents (use_subagents) running at once. */
  readonly maxSubagents: number;
  /** --plan / --act: Plan or Act (default Act). */
  readonly mode: PlanAct;
  /** Plan or Act was chosen on the command line (a resumed task switches to it). */
  readonly planActGiven: boolean;
  /** --mode NAME (or the older --skill NAME): the mode to run in; `plan`/`act` are read as Plan/Act while no mode has that slug (see mode-choice.ts). */
  readonly modeSlug?: string;
  /** Lines for stderr about deprecated flags that were used. */
  readonly deprecations: readonly string[];
  readonly mcpConfig?: string;
  /** Start the workspace's .smith/mcp.json servers without asking. */
  readonly trustWorkspace: boolean;
  readonly output: 'human' | 'json' | 'stream-json';
  readonly maxIterations: number;
  /** --max-repeats N: identical calls in a row before the model is told, and then the user asked (0: never). */
  readonly maxRepeatedCalls?: number;
  /** `--preview-timeout`: seconds a command preview may run. */
  readonly commandPreviewTimeoutSeconds?: number;
  /** --max-cost USD: stop (and ask, on a terminal) when the task has cost this much. */
  readonly maxCost?: number;
  /** --auto-condense PERCENT: condense the history when a request fills this much of the window. */
  readonly autoCondenseAt?: number;
  /** --auto-condense TOKENS: condense the history when a request holds this many tokens. */
  readonly autoCondenseTokens?: number;
  readonly storage?: string;
  readonly resume?: string;
  readonly verbose: boolean;
  readonly quiet: boolean;
  readonly help: boolean;
  readonly version: boolean;
  /** Print the models the provider offers and exit. */
  readonly listModels: boolean;
  /** --no-checkpoints: take no checkpoints of the workspace. */
  readonly checkpoints: boolean;
  /** --allow RULE / --deny RULE / --ask RULE (repeatable): permission rules for this run. */
  readonly permissions: readonly { readonly effect: 'allow' | 'ask' | 'deny'; readonly rule: string }[];
  /** --sandbox: every command runs under bubblewrap; --sandbox-network lets them reach the network, --sandbox-allow-host only these hosts. */
  readonly sandbox: boolean;
  readonly sandboxNetwork: boolean;
  readonly sandboxAllowedHosts: readonly string[];
  /** --browser-*, --web-deny: the browser browser_action drives and the hosts the web tools refuse. */
  readonly web: WebToolSettings;
  /** --dry-run: files are not written; the changes are printed as a patch (or written to patchFile). */
  readonly dryRun: boolean;
  readonly patchFile?: string;
  /** --input stream-json: messages, approvals and answers arrive as JSON lines on stdin. */
  readonly input: 'text' | 'stream-json';
  /** --image FILE (repeatable): images sent with the task or the resume message. */
  readonly images: readonly string[];
}

/** The switches of the auto-approve policy, as named on the command line. */
export const AUTO_APPROVE_FLAGS = ['read', 'edit', 'safe-commands', 'commands', 'mcp', 'browser'] as const;
export type AutoApproveFlag = (typeof AUTO_APPROVE_FLAGS)[number];
