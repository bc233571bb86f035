import type { ApprovalAnswer, ApprovalRequest, Host, PreviewShown } from '../ports.js';
import type { ApprovalFacts } from '../log/approval-policy.js';
import type { CostBudget } from '../log/cost-budget.js';
import type { ToolUseBlock } from '../parse/types.js';
import type { Base64Image } from '../providers/types.js';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import type { ReadGuard } from '../workspace/read-guard.js';
import type { WorkspaceRoots } from '../workspace/workspace-roots.js';
import type { SkillLoaded } from '../log/conversation-events.js';
import type { ToolResultDetails } from '../log/tool-events.js';
import type { FileVersions, KnownFile } from '../log/file-stamp.js';
import { TOOL_CATALOGUE, type ToolGroup, type ToolName } from '../../shared/tool-catalogue.js';

/** One parameter of a tool, as documented to the model. */
interface ToolParamSpec {
  readonly name: string;
  readonly required: boolean;
  readonly description: string;
  /** An empty value is a value (write_to_file's content of an empty file), not a missing one. */
  readonly allowEmpty?: boolean;
}

/** The single description of a tool: the prompt's tool section and the parser grammar derive from it. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly params: readonly ToolParamSpec[];
  /** A complete example call in XML, shown in the prompt. */
  readonly example: string;
  readonly group: ToolGroup;
}

/**
 * A built-in tool's spec: its name must have a row in the tool catalogue (src/shared/tool-catalogue.ts),
 * which gives its group; the spec holds what the model reads.
 */
export function builtInSpec(spec: Omit<ToolSpec, 'group'> & { readonly name: ToolName }): ToolSpec {
  return { ...spec, group: TOOL_CATALOGUE[spec.name].group };
}

/** What a tool call produced. */
export type ToolOutcome =
  /** `images` reach vision models only; `output` must describe them too, as other models see only it. */
  | { readonly kind: 'result'; readonly output: string; readonly images?: readonly Base64Image[]; readonly details?: ToolResultDetails }
  /** `details`: facts of a call that ran and failed (an MCP tool's error result). */
  | { readonly kind: 'error'; readonly error: string; readonly mistake: boolean; readonly details?: ToolResultDetails }
  | { readonly kind: 'rejected'; readonly feedback?: string }
  | { readonly kind: 'completed'; readonly result: string; readonly command?: string }
  | { readonly kind: 'condensed'; readonly summary: string }
  | { readonly kind: 'new_task'; readonly context: string };

/** What a handler may use while running; everything reaches the editor or terminal through the host. */
export interface ToolContext {
  readonly host: Host;
  readonly cwd: string;
  /** All folders of a multi-root workspace (absent: `cwd` is the only one). */
  readonly workspace?: WorkspaceRoots;
  readonly signal: AbortSignal;
  /** Fires when the user lets this call go on in the background (a running command); absent where that cannot happen. */
  readonly detach?: AbortSignal;
  readonly callId: string;
  /** The task making the call (its sub-agents' logs go with it). */
  readonly taskId: string;
  /** The .smithignore rules: no tool reads, lists, searches or edits an ignored path. */
  readonly ignore: IgnorePolicy;
  /** The user's Read rules file by file: a search, an outline or an edit never shows a withheld file's content (absent: none). */
  readonly readGuard?: ReadGuard;
  /** What the task last read or wrote of a file (from its log), so edits of a file changed since are refused. */
  readonly knownFile: KnownFile;
  /** Where the contents tools read and write are kept, so an edit of a file changed since can be merged (absent: never merged, refused). */
  readonly fileVersions?: FileVersions;
  /** True when `approve` would answer without asking anyone (a rule, a hook, the auto-approve policy); absent: treated as true. */
  wouldAutoApprove?(facts?: Omit<ApprovalFacts, 'group'>): boolean;
  /** The model of this turn takes images (known from the model catalogue); absent means no. */
  readonly modelSupportsImages?: boolean;
  /**
   * Asks for approval unless the policy auto-approves this call (judged from the tool's group
   * and the facts given); logs the question as shown and the answer. Feedback given with an
   * approval reaches the model from the log: a tool never repeats it in its output.
   */
  approve(request: Omit<ApprovalRequest, 'callId' | 'tool' | 'params'>, facts?: Omit<ApprovalFacts, 'group'>): Promise<ApprovalAnswer>;
  /** The task's cost budget (cost-budget.ts): sub-agents a call starts spend from it too. Absent without a cost limit. */
  readonly costs?: CostBudget;
  /** Streams progress (e.g. command output) to the UI; not logged. */
  progress(text: string): void;
  /** Logs that this call starts a command, before any process exists, with the marker its processes will carry (see CommandStarted). */
  commandStarted?(started: { readonly command: string; readonly marker: string }): void;
  /** Runs a command on a copy of the workspace (a command preview), logged as `command_previewed`; absent where none is offered. */
  previewCommand?(command: string): Promise<CommandPreviewHandle>;
  /** Logs that this call loaded an Agent Skill (`skill_loaded`), which makes it the active skill. */
  skillLoaded?(loaded: Omit<SkillLoaded, 'type' | 'seq' | 'ts' | 'callId'>): void;
  /** Logs that this call started a sub-agent; the signal fires when the user stops that one. */
  subagentStarted?(started: SubagentStart): AbortSignal;
}

/** A finished command preview: its facts, and its copy of the workspace until disposed. */
export interface CommandPreviewHandle extends PreviewShown {
  /** Writes the previewed file changes into the workspace (throws, writing nothing, when it cannot do so exactly). */
  apply(): { readonly written: readonly string[]; readonly deleted: readonly string[] };
  dispose(): void;
}

/** A sub-agent as it starts: its place among the call's requests, its task, its prompt, the agent or mode it runs as, the paths it may edit. */
export interface SubagentStart {
  readonly index: number;
  readonly taskId: string;
  readonly prompt: string;
  readonly name?: string;
  readonly paths?: readonly string[];
}

/** A tool: its spec plus the code that runs a validated call. */
export interface ToolHandler {
  readonly spec: ToolSpec;
  /**
   * The path an edit call really changes, when it is not its `path` parameter as given (new_rule
   * writes inside .smithrules/); the mode's fileRegex judges this one.
   */
  editedPath?(params: Readonly<Record<string, string>>): string | undefined;
  execute(params: Readonly<Record<string, string>>, context: ToolContext): Promise<ToolOutcome>;
}

/** Builds an error outcome caused by the model's own call. */
export function mistake(error: string): ToolOutcome {
  return { kind: 'error', error, mistake: true };
}

/** Returns a message naming the missing required parameters, or undefined when all are present. */
export function missingParams(spec: ToolSpec, block: Pick<ToolUseBlock, 'params'>): string | undefined {
  const missing = missingRequired(spec, block);
  if (missing.length === 0) return undefined;
  const names = missing.map((p) => `'${p.name}'`).join(', ');
  return `Missing value for required parameter ${names} of ${spec.name}. Please retry with a complete call, for example:\n${spec.example}`;
}

/** The required parameters a call lacks (blank counts as missing unless the parameter allows empty). */
export function missingRequired(spec: ToolSpec, block: Pick<ToolUseBlock, 'params'>): ToolParamSpec[] {
  return spec.params.filter((p) => {
    if (!p.required) return false;
    const value = block.params[p.name];
    return value === undefined || (!p.allowEmpty && value.trim() === '');
  });
}
