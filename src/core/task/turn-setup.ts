import { isAbsolute, relative, sep } from 'node:path';
import { buildSystemPrompt } from '../prompt/system-prompt.js';
import { toolDefinitions } from '../prompt/tool-definitions.js';
import type { ApiProvider, ToolDefinition, ToolProtocol } from '../providers/types.js';
import { loadRules } from '../rules/rules-loader.js';
import { touchedPaths } from '../rules/touched-paths.js';
import { BUILT_IN_MODES, DEFAULT_MODE_SLUG } from '../modes/built-in-modes.js';
import type { Mode } from '../modes/mode.js';
import type { PlanAct } from '../../shared/plan-act.js';
import { allowedToolNames } from '../modes/tool-permissions.js';
import type { ToolRegistry } from '../tool-kit/tool-registry.js';
import type { TaskEvent } from '../log/events.js';
import type { PermissionRule } from '../permissions/permission-rules.js';
import { readGuardOf } from '../permissions/read-rule-guard.js';
import { refusalReason } from '../workspace/read-guard.js';
import type { WorkspaceRoots } from '../workspace/workspace-roots.js';
import type { SkillLimits } from '../permissions/skill-tool-limits.js';
import { activeSkill } from '../skills/active-skill.js';
import { skillsPromptSection } from '../skills/skill-prompt-section.js';
import { isNotebookPath } from '../notebooks/notebook-document.js';
import type { SkillSession } from '../skills/skill-session.js';

/** What one model request is made with, derived afresh each time from the log and the options. */
export interface TurnSetup {
  readonly mode: PlanAct;
  /** The mode (persona) in force: its role, and the tools and files it may use. */
  readonly activeMode: Mode;
  readonly provider: ApiProvider;
  readonly allowedTools: ReadonlySet<string>;
  readonly systemPrompt: string;
  /** How the provider's model calls tools this turn. */
  readonly toolProtocol: ToolProtocol;
  /** Native tool calling only: the allowed tools as definitions for the request. */
  readonly toolDefinitions?: readonly ToolDefinition[];
  /** Rules entries skipped or cut this turn, one line each, for the user. */
  readonly ruleNotes: readonly string[];
  /** The Agent Skill loaded and still in force (see activeSkill): its allowed-tools limit every call. */
  readonly activeSkill?: SkillLimits;
}

/** The inputs that shape a turn. */
export interface TurnInputs {
  readonly cwd: string;
  readonly tools: ToolRegistry;
  readonly provider: ApiProvider;
  readonly providerForMode?: Partial<Record<PlanAct, ApiProvider>>;
  readonly modes?: readonly Mode[];
  readonly globalRulesDir?: string;
  /** Labels of the rules the user turned off (read each turn). */
  readonly disabledRules?: () => ReadonlySet<string>;
  readonly system?: { readonly os: string; readonly shell: string };
  /** Extra system-prompt sections from the host (e.g. MCP servers). */
  readonly extraPromptSections?: () => readonly string[];
  /** Tools to leave out of this turn's prompt (they stay callable), e.g. MCP discovery tools outside discovery mode. */
  readonly hiddenTools?: () => ReadonlySet<string>;
  /** The user's permission rules: deny, ask and allow by tool, command and path (docs/permissions.md); a function is read before each call. A rules file their Read rules withhold is named in the prompt, not read. */
  readonly permissions?: readonly PermissionRule[] | (() => readonly PermissionRule[]);
  /** All folders of a multi-root workspace, `cwd` the primary one (absent: `cwd` alone). */
  readonly workspace?: WorkspaceRoots;
  /** The workspace's Agent Skills, read again each turn; absent or none offered: no skills section and no use_skill. */
  readonly agentSkills?: SkillSession;
  /** Whether the workspace holds Jupyter notebooks (absent: no); edit_notebook is offered only then, or once the task names one. */
  readonly workspaceHasNotebooks?: () => boolean;
}

/** The rules files the Read rules withhold, judged as read_file would be. */
function withheldRules(inputs: TurnInputs): { withhold?: (path: string) => string | undefined } {
  const guard = readGuardOf(inputs.permissions, { cwd: inputs.cwd, ...(inputs.workspace ? { workspace: inputs.workspace } : {}) });
  if (!guard.covers()) return {};
  return {
    withhold: (path) => {
      const refusal = guard.refusal(path);
      return refusal ? refusalReason(refusal) : undefined;
    },
  };
}

/** Plan/Act and the mode in force at the end of the log. */
export function currentPlanActAndMode(events: readonly TaskEvent[]): { mode: PlanAct; modeSlug: string } {
  let mode: PlanAct = 'act';
  let modeSlug = DEFAULT_MODE_SLUG;
  for (const event of events) {
    if (event.type === 'task_started') {
      mode = event.mode ?? mode;
      modeSlug = event.modeSlug ?? modeSlug;
    } else if (event.type === 'mode_switched') mode = event.mode;
    else if (event.type === 'mode_slug_switched') modeSlug = event.modeSlug;
  }
  return { mode, modeSlug };
}

/** Finds a mode by slug, with a message listing the valid ones when it does not exist. */
export function findMode(modes: readonly Mode[], slug: string): Mode {
  const found = modes.find((m) => m.slug === slug);
  if (!found) throw new Error(`Unknown mode "${slug}". Available modes: ${modes.map((m) => m.slug).join(', ')}.`);
  return found;
}

/**
 * Builds the prompt and tool permissions for the next request; rules files are re-read each time.
 * The tool protocol is the provider's (set per provider and model), XML unless it says native.
 */
export function setupTurn(inputs: TurnInputs, events: readonly TaskEvent[]): TurnSetup {
  const { mode, modeSlug } = currentPlanActAndMode(events);
  const activeMode = findMode(inputs.modes ?? BUILT_IN_MODES, modeSlug);
  const allowedTools = allowedToolNames(inputs.tools.specs(), mode, activeMode);
  const { withhold } = withheldRules(inputs);
  const rules = loadRules({
    workspaceRoot: inputs.cwd,
    modeSlug: activeMode.slug,
    touchedPaths: touchedPaths(events, inputs.cwd),
    ...(inputs.globalRulesDir ? { globalRulesDir: inputs.globalRulesDir } : {}),
    ...(inputs.disabledRules ? { disabled: inputs.disabledRules() } : {}),
    ...(withhold ? { withhold } : {}),
  });
  const roleText = modeText(activeMode, inputs.cwd, withhold);
  // Only a task that has use_skill is offered skills (a sub-agent has not).
  const offeredSkills = inputs.tools.get('use_skill') ? (inputs.agentSkills?.refresh().offered ?? []) : [];
  const hidden = new Set(inputs.hiddenTools?.() ?? []);
  if (offeredSkills.length === 0) hidden.add('use_skill');
  // Its spec costs every request; a workspace without notebooks never needs it (a call still works).
  if (!inputs.workspaceHasNotebooks?.() && !namesNotebook(events)) hidden.add('edit_notebook');
  const provider = inputs.providerForMode?.[mode] ?? inputs.provider;
  const toolProtocol = provider.toolProtocol ?? 'xml';
  const tools = inputs.tools.specs().filter((spec) => allowedTools.has(spec.name) && !hidden.has(spec.name));
  const systemPrompt = buildSystemPrompt({
    tools,
    cwd: inputs.cwd,
    os: inputs.system?.os ?? process.platform,
    shell: inputs.system?.shell ?? process.env.SHELL ?? 'sh',
    roleText,
    extraSections: [modeSection(mode), skillsPromptSection(offeredSkills), ...(inputs.extraPromptSections?.() ?? []), rules.section],
    ...(toolProtocol === 'native' ? { toolProtocol } : {}),
  });
  return {
    mode,
    activeMode,
    provider,
    allowedTools,
    systemPrompt,
    toolProtocol,
    ruleNotes: rules.notes,
    ...skillInForce(events),
    ...(toolProtocol === 'native' ? { toolDefinitions: toolDefinitions(tools) } : {}),
  };
}

/**
 * The mode's role and instructions for the prompt. A mode file the Read rules withhold is named,
 * not sent: the default mode's role stands in, while the mode's tool groups still apply.
 */
function modeText(active: Mode, cwd: string, withhold: ((path: string) => string | undefined) | undefined): string {
  const withheld = active.source === 'built-in' ? undefined : withhold?.(active.source);
  if (withheld === undefined) return active.customInstructions ? `${active.roleDefinition}\n\n${active.customInstructions}` : active.roleDefinition;
  const fallback = findMode(BUILT_IN_MODES, DEFAULT_MODE_SLUG);
  const inside = relative(cwd, active.source);
  const label = inside.startsWith('..') || isAbsolute(inside) ? active.source : inside.split(sep).join('/');
  return `${fallback.roleDefinition}\n\n[Mode file ${label} withheld: ${withheld}. Its role and instructions are not shown; the ${active.name} mode's tool limits still apply.]`;
}

/** Whether a call of the task named a notebook (read one, wrote one): edit_notebook is offered from then on. */
function namesNotebook(events: readonly TaskEvent[]): boolean {
  return events.some((event) => event.type === 'tool_requested' && event.params.path !== undefined && isNotebookPath(event.params.path.trim()));
}

/** The Agent Skill in force, as its limits: only one that names allowed-tools limits anything. */
function skillInForce(events: readonly TaskEvent[]): { activeSkill?: SkillLimits } {
  const loaded = activeSkill(events);
  if (!loaded?.allowedTools) return {};
  return { activeSkill: { name: loaded.name, dir: loaded.dir, allowedTools: loaded.allowedTools, rules: loaded.rules ?? [] } };
}

function modeSection(mode: PlanAct): string {
  return mode === 'plan'
    ? '# Mode: PLAN\n\nYou are in Plan mode. Gather information with the read tools, ask clarifying questions, and present a concrete plan with plan_mode_respond. You cannot edit files or run commands in this mode; the user switches to Act mode to carry the plan out.'
    : '# Mode: ACT\n\nYou are in Act mode: carry out the task with the tools, then finish with attempt_completion.';
}
