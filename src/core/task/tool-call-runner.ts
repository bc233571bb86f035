import { existsSync } from 'node:fs';
import type { ToolUseBlock } from '../parse/types.js';
import type { ApprovalAnswer, Host } from '../ports.js';
import type { ShownApproval } from '../../shared/tool-details.js';
import type { ToolRegistry } from '../tool-kit/tool-registry.js';
import { limitToolImages } from '../tool-kit/tool-images.js';
import { lastFileStamp } from '../tool-kit/file-stamping.js';
import { missingParams, type ToolContext, type ToolHandler, type ToolOutcome } from '../tool-kit/tool-spec.js';
import { type ApprovalFacts, isAutoApproved, type AutoApprovePolicy } from '../log/approval-policy.js';
import { loopCounters } from './loop-counters.js';
import { narrowestAllowRules } from '../permissions/allow-rules.js';
import { judgeCall, type PermissionRule, type PermissionVerdict } from '../permissions/permission-rules.js';
import { createReadGuard, readGuardOf } from '../permissions/read-rule-guard.js';
import { withNotificationHooks } from '../hooks/notification-hooks.js';
import type { HookSettings } from '../hooks/hooks.js';
import type { HookPermissionMode } from '../hooks/hook-session.js';
import { postToolUseNote, preToolUse } from '../hooks/tool-hooks.js';
import type { TaskLog } from '../log/task-log.js';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import type { WorkspaceRoots } from '../workspace/workspace-roots.js';
import type { Mode } from '../modes/mode.js';
import { editRefusal } from '../modes/tool-permissions.js';
import { editScopeRefusal, type EditScope } from '../permissions/edit-scope.js';
import { type SkillLimits, skillAllowsCall, skillRefusal } from '../permissions/skill-tool-limits.js';
import { resolveWorkspacePath } from '../workspace/workspace-paths.js';
import { argumentsErrorMessage, nativeMissingParams } from './native-tool-calls.js';
import type { CostBudget } from '../log/cost-budget.js';
import { commandPreviewer, type CommandPreviewSettings } from './command-preview-call.js';
import type { FileVersions } from '../log/file-stamp.js';

/** What the loop needs to run one tool call. */
export interface ToolCallEnvironment {
  readonly log: TaskLog;
  readonly tools: ToolRegistry;
  readonly host: Host;
  readonly cwd: string;
  /** All folders of a multi-root workspace (absent: `cwd` alone). */
  readonly workspace?: WorkspaceRoots;
  readonly policy: AutoApprovePolicy;
  readonly ignore: IgnorePolicy;
  readonly signal: AbortSignal;
  /** Names the current Plan/Act state and mode allow; a call outside it is refused. */
  readonly allowedTools?: ReadonlySet<string>;
  /** The active mode; its file pattern limits edits. */
  readonly activeMode?: Mode;
  /** A sub-agent's declared paths: an edit anywhere else is refused. */
  readonly editScope?: EditScope;
  /** The Agent Skill in force: a call its allowed-tools do not permit is refused. */
  readonly activeSkill?: SkillLimits;
  /** The turn's model takes images: tools may return them and results keep them. */
  readonly modelSupportsImages?: boolean;
  /** The user's hooks: commands run before and after each tool call. */
  readonly hooks?: HookSettings;
  /** The user's permission rules (deny, ask, allow), judged before the auto-approve policy. */
  /** A function is read before each call, so a rule added meanwhile ("always allow") applies at once. */
  readonly permissions?: readonly PermissionRule[] | (() => readonly PermissionRule[]);
  /** Where each executing call's detach controller is registered, so the user can let it continue in the background. */
  readonly detachable?: Map<string, AbortController>;
  /** The task's mode and approval policy in Claude Code's words, for the hooks' `permission_mode`. */
  readonly permissionMode?: HookPermissionMode;
  /** The task's cost budget, which the sub-agents a call starts share. */
  readonly costs?: CostBudget;
  /** How commands are previewed before their approval (absent: no preview is offered). */
  readonly commandPreview?: Omit<CommandPreviewSettings, 'signal'>;
  /** Where the contents the tools read and write are kept, so an edit of a file changed since can be merged (absent: no checkpoint store). */
  readonly fileVersions?: FileVersions;
  onProgress(callId: string, text: string): void;
}

/** What running the tool calls of one response means for the loop. */
type ToolCallsOutcome =
  | Extract<ToolOutcome, { kind: 'completed' | 'new_task' }>
  /** Go on with the next request; `mistake` when some call was the model's fault. */
  | { readonly kind: 'continue'; readonly mistake: boolean };

/**
 * Runs the calls of one response one after another, each validated and approved on its own.
 * A rejection or the end of the task stops the rest, which are logged as not executed so every
 * native call gets its result (vendors refuse a call without one).
 */
export async function runToolCalls(blocks: readonly ToolUseBlock[], env: ToolCallEnvironment, ignoredTools: number): Promise<ToolCallsOutcome> {
  let mistake = false;
  // Several calls in one response are shown as one batch: each approval names its place in it.
  const response = env.log.events.findLast((e) => e.type === 'model_response');
  const calls = blocks.map((b) => ({ tool: b.name, params: { ...b.params } }));
  for (const [i, block] of blocks.entries()) {
    const batch = blocks.length > 1 ? { id: `r${response?.seq ?? env.log.events.length}`, index: i + 1, calls } : undefined;
    const outcome = await runToolCall(block, env, ignoredTools, batch);
    if (outcome.kind === 'error' && outcome.mistake) mistake = true;
    const reason = stopReason(outcome, block);
    if (reason === undefined) continue;
    for (const skipped of blocks.slice(i + 1)) skipToolCall(skipped, env, reason);
    if (outcome.kind === 'completed' || outcome.kind === 'new_task') return outcome;
    break;
  }
  return { kind: 'continue', mistake };
}

/**
 * Validates, approves and executes one tool call, logging every step. Returns the outcome;
 * the caller decides what it means for the loop.
 */
export async function runToolCall(block: ToolUseBlock, env: ToolCallEnvironment, ignoredTools: number, batch?: ShownApproval['batch']): Promise<ToolOutcome> {
  const callId = `call-${env.log.events.length}`;
  env.log.append({ type: 'tool_requested', callId, tool: block.name, params: block.params, ...(block.id ? { toolUseId: block.id } : {}) });
  const { outcome, params, hookNote } = await execute(block, env, callId, batch);
  const ignoredNote =
    ignoredTools > 0 ? `\n\n[Note: only one tool may be used per message; ${ignoredTools} more tool call(s) in your message were ignored.]` : '';
  const note = ignoredNote + hookNote + (await postToolUseNote(block.name, params, callId, outcome, env));
  switch (outcome.kind) {
    case 'result': {
      // Enforced here for every tool: no images for a model that cannot see them, and a bounded log line.
      const limited = limitToolImages(env.modelSupportsImages ? (outcome.images ?? []) : []);
      const images = limited.images.length > 0 ? { images: limited.images } : {};
      const details = outcome.details ? { details: outcome.details } : {};
      env.log.append({ type: 'tool_result', callId, tool: block.name, output: outcome.output + limited.note + note, ...images, ...details });
      break;
    }
    case 'error': {
      const details = outcome.details ? { details: outcome.details } : {};
      env.log.append({ type: 'tool_error', callId, tool: block.name, error: outcome.error + note, mistake: outcome.mistake, ...details });
      break;
    }
    case 'condensed':
      env.log.append({ type: 'history_condensed', summary: outcome.summary });
      env.log.append({
        type: 'tool_result',
        callId,
        tool: block.name,
        output: `The conversation history was condensed into your summary. Continue the task from it.${note}`,
      });
      break;
    case 'rejected':
    case 'completed':
    case 'new_task':
      break;
  }
  return outcome;
}

/** A call's outcome, the parameters it ran with (a PreToolUse hook may change them) and what its hooks added for the model. */
interface Executed {
  readonly outcome: ToolOutcome;
  readonly params: Readonly<Record<string, string>>;
  readonly hookNote: string;
}

async function execute(block: ToolUseBlock, env: ToolCallEnvironment, callId: string, batch: ShownApproval['batch']): Promise<Executed> {
  const refused = (outcome: ToolOutcome): Executed => ({ outcome, params: block.params, hookNote: '' });
  const host = withNotificationHooks(env.host, env.hooks, env.cwd, env.log, env.permissionMode);
  const handler = env.tools.get(block.name);
  if (!handler) {
    const available = env.allowedTools ? ` Available tools: ${[...env.allowedTools].join(', ')}.` : '';
    return refused({ kind: 'error', error: `Unknown tool "${block.name}".${available}`, mistake: true });
  }
  if (env.allowedTools && !env.allowedTools.has(block.name)) {
    return refused({
      kind: 'error',
      error: `The tool ${block.name} is not available in the current mode. Available tools: ${[...env.allowedTools].join(', ')}.`,
      mistake: true,
    });
  }
  if (block.partial) {
    return refused({
      kind: 'error',
      error: `Your ${block.name} call was cut off before its closing tag </${block.name}>, so nothing was executed. Send the complete call again.`,
      mistake: true,
    });
  }
  if (block.argumentsError !== undefined) return refused({ kind: 'error', error: argumentsErrorMessage(block, handler.spec), mistake: true });
  // A native call's parameters are JSON fields, so the XML example of missingParams would mislead.
  const missing = block.id ? nativeMissingParams(handler.spec, block) : missingParams(handler.spec, block);
  if (missing) return refused({ kind: 'error', error: missing, mistake: true });
  const first = await judgeParams(block.name, block.params, handler, env);
  if (first.refusal) return refused(first.refusal);
  const pre = await preToolUse(block.name, block.params, callId, env);
  if (pre.blocked !== undefined)
    return refused({ kind: 'error', error: `A PreToolUse hook of the user blocked this call, so it was not run: ${pre.blocked}`, mistake: false });
  // Parameters a hook changed are judged again: a deny rule or the mode's pattern still holds.
  const { refusal, verdict } = pre.params === block.params ? first : await judgeParams(block.name, pre.params, handler, env);
  if (refusal) return { outcome: refusal, params: pre.params, hookNote: '' };
  const params = pre.params;

  const detach = new AbortController();
  const subagentStops: string[] = [];
  // The auto-approvals were given for confined commands; without the sandbox, nothing approves one.
  const unconfinedReason = () => (handler.spec.group === 'command' ? env.policy.unconfinedCommands : undefined);
  /** What would approve this call without asking (a rule, a hook, the policy), or undefined when the user is asked. */
  const automaticApproval = (facts: Omit<ApprovalFacts, 'group'>): { readonly rule?: string } | undefined => {
    // The cap on approvals in a row is counted from the log, so a resumed task goes on counting.
    const cap = env.policy.maxConsecutive;
    const hookDecision = pre.permission?.decision;
    const unconfined = unconfinedReason();
    if (unconfined === undefined && verdict?.effect === 'allow' && hookDecision !== 'ask') return { rule: verdict.rule.rule };
    // A hook's allow stays inside the workspace: outside it only --allow-outside-workspace or the user approves (as with --yes).
    const hookMayAllow =
      unconfined === undefined && hookDecision === 'allow' && verdict?.effect !== 'ask' && !(facts.outsideWorkspace && !env.policy.outsideWorkspace);
    if (hookMayAllow) return { rule: 'PreToolUse hook' };
    const policyAllows =
      unconfined === undefined && verdict?.effect !== 'ask' && hookDecision !== 'ask' && isAutoApproved(env.policy, { group: handler.spec.group, ...facts });
    if (policyAllows && (cap <= 0 || loopCounters(env.log.events).autoApprovalsInARow < cap)) return {};
    return undefined;
  };
  const context: ToolContext = {
    host,
    cwd: env.cwd,
    ...(env.workspace ? { workspace: env.workspace } : {}),
    signal: env.signal,
    detach: detach.signal,
    callId,
    taskId: env.log.taskId,
    ignore: env.ignore,
    readGuard: readGuardOf(env.permissions, { cwd: env.cwd, ...(env.workspace ? { workspace: env.workspace } : {}) }),
    knownFile: (absolutePath) => lastFileStamp(env.log.events, absolutePath),
    ...(env.fileVersions ? { fileVersions: env.fileVersions } : {}),
    wouldAutoApprove: (facts = {}) => automaticApproval(facts) !== undefined,
    ...(env.modelSupportsImages ? { modelSupportsImages: true } : {}),
    ...(env.costs ? { costs: env.costs } : {}),
    progress: (text) => env.onProgress(callId, text),
    commandStarted: (started) => env.log.append({ type: 'command_started', callId, ...started }),
    ...(env.commandPreview ? { previewCommand: commandPreviewer({ ...env.commandPreview, signal: env.signal }, env.log, callId) } : {}),
    skillLoaded: (loaded) => env.log.append({ type: 'skill_loaded', callId, ...loaded }),
    subagentStarted: (started) => {
      env.log.append({ type: 'subagent_started', callId, ...started });
      const stop = new AbortController();
      subagentStops.push(subagentStopKey(started.taskId));
      env.detachable?.set(subagentStopKey(started.taskId), stop);
      return stop.signal;
    },
    approve: async (request, facts = {}): Promise<ApprovalAnswer> => {
      const unconfined = unconfinedReason();
      const automatic = automaticApproval(facts);
      if (automatic) {
        env.log.append({ type: 'tool_auto_approved', callId, ...(automatic.rule ? { rule: automatic.rule } : {}) });
        return { approved: true };
      }
      const hookDecision = pre.permission?.decision;
      // A rule's reason is kept beside the sandbox's: each says something the user must know.
      const ruleReason = verdict?.effect === 'ask' ? askReason(verdict) : undefined;
      const reason =
        (unconfined !== undefined || ruleReason !== undefined ? [unconfined, ruleReason].filter(Boolean).join(' ') : undefined) ??
        (hookDecision === 'ask'
          ? `A PreToolUse hook asks for this call${pre.permission?.reason ? `: ${pre.permission.reason}` : '.'}`
          : facts.outsideWorkspace
            ? `The path is outside the workspace${hookDecision === 'allow' ? " (a PreToolUse hook's allow does not reach outside it)" : ''}.`
            : request.reason);
      const { proposal, preview, ...asked } = request;
      const allowRules = await narrowestAllowRules(block.name, params, env.cwd);
      const shown: ShownApproval = {
        ...asked,
        ...(reason ? { reason } : {}),
        callId,
        tool: block.name,
        params,
        ...(allowRules ? { allowRules } : {}),
        ...(batch ? { batch } : {}),
      };
      env.log.append({ type: 'approval_asked', callId, request: shown });
      const answer = await host.approvals.ask({ ...shown, ...(proposal ? { proposal } : {}), ...(preview ? { preview } : {}) }, env.signal);
      env.log.append({
        type: 'approval_answered',
        callId,
        approved: answer.approved,
        ...(answer.feedback ? { feedback: answer.feedback } : {}),
        ...(answer.approved && answer.applyPreview ? { applyPreview: true as const } : {}),
      });
      return answer;
    },
  };
  env.detachable?.set(callId, detach);
  try {
    return { outcome: await handler.execute(params, context), params, hookNote: pre.note };
  } catch (error) {
    if (env.signal.aborted) throw error;
    return { outcome: { kind: 'error', error: `${block.name} failed: ${(error as Error).message}`, mistake: false }, params, hookNote: pre.note };
  } finally {
    env.detachable?.delete(callId);
    for (const key of subagentStops) env.detachable?.delete(key);
  }
}

/**
 * The mode's file pattern and the user's permission rules over a call's parameters: a refusal
 * (deny wins, whatever the policy says), or the rules' verdict for the approval.
 */
async function judgeParams(
  tool: string,
  params: Readonly<Record<string, string>>,
  handler: ToolHandler,
  env: ToolCallEnvironment,
): Promise<{ refusal?: ToolOutcome; verdict?: Awaited<ReturnType<typeof judgeCall>> }> {
  const group = handler.spec.group;
  // The mode's file pattern is enforced here, on the completed call, never left to the prompt,
  // on the path the edit really changes (links followed, `..` resolved, relative to its folder).
  if (env.activeMode && group === 'edit') {
    const named = handler.editedPath ? handler.editedPath(params) : params.path;
    const refusal = editRefusal(env.activeMode, named === undefined ? undefined : resolveWorkspacePath(env.workspace ?? env.cwd, named).display);
    if (refusal) return { refusal: { kind: 'error', error: refusal, mistake: true } };
  }
  // A sub-agent's declared paths hold for every edit tool, judged where the path really leads.
  if (env.editScope && group === 'edit') {
    const place = { cwd: env.cwd, ...(env.workspace ? { workspace: env.workspace } : {}) };
    const refusal = params.path
      ? editScopeRefusal(env.editScope, params.path, place)
      : `${tool} names no path, and ${env.editScope.owner} may edit only its declared paths.`;
    if (refusal) return { refusal: { kind: 'error', error: refusal, mistake: true } };
  }
  // An Agent Skill's allowed-tools, enforced on the completed call (after a hook's changes too).
  const where = { cwd: env.cwd, ...(env.workspace ? { workspace: env.workspace } : {}) };
  if (env.activeSkill && !(await skillAllowsCall(env.activeSkill, { tool, params, ...where })))
    return { refusal: { kind: 'error', error: skillRefusal(env.activeSkill, tool), mistake: false } };
  const rules = typeof env.permissions === 'function' ? env.permissions() : env.permissions;
  const verdict =
    rules && rules.length > 0 ? await judgeCall(rules, { tool, params, cwd: env.cwd, ...(env.workspace ? { workspace: env.workspace } : {}) }) : undefined;
  if (verdict?.effect === 'deny') {
    const which = verdict.reason ? ` (${verdict.reason})` : '';
    return {
      refusal: {
        kind: 'error',
        error: `The user's permission rule ${verdict.rule.rule} (${verdict.rule.source}) denies this call, so it was not run${which}. Do not try it again in another form; find another way or ask the user.`,
        mistake: false,
      },
    };
  }
  const unreadable = group === 'edit' && params.path ? editOfWithheldFile(params.path, rules ?? [], env) : undefined;
  if (unreadable) return { refusal: { kind: 'error', error: unreadable, mistake: false } };
  return verdict ? { verdict } : {};
}

/**
 * An edit shows the file it changes (a SEARCH block's closest region, the user's changes to the
 * proposal, diagnostics), so a file a Read rule denies is never edited, and one a Read rule asks
 * for only once it exists no more or was read in this task (the user was asked then).
 */
function editOfWithheldFile(path: string, rules: readonly PermissionRule[], env: ToolCallEnvironment): string | undefined {
  const place = { cwd: env.cwd, ...(env.workspace ? { workspace: env.workspace } : {}) };
  const refusal = createReadGuard(rules, place).refusal(path);
  if (!refusal) return undefined;
  if (refusal.effect === 'deny') {
    return `The user's permission rule ${refusal.rule} (${refusal.source}) keeps this file's content from you, and an edit would show it, so the edit was not run. Do not try it in another form; ask the user to change the file.`;
  }
  const absolute = resolveWorkspacePath(env.workspace ?? env.cwd, path).absolute;
  if (!existsSync(absolute) || lastFileStamp(env.log.events, absolute)) return undefined;
  return `The user's permission rule ${refusal.rule} (${refusal.source}) asks before this file's content reaches you, and an edit would show it. Read it with read_file first (the user will be asked), then edit it.`;
}

/**
 * Why a rule asks: the rule and the command it matched, or, for a command line that cannot be
 * judged for sure, why not. The host shows it, and says it again when nobody could answer.
 */
function askReason(verdict: NonNullable<PermissionVerdict>): string {
  const rule = `${verdict.rule.rule} (${verdict.rule.source})`;
  if (verdict.opaque)
    return `This command line is asked because ${verdict.reason ?? 'it cannot be judged for sure'}, and the permission rule ${rule} must not be bypassed.`;
  return `The permission rule ${verdict.rule.rule} asks for this call${verdict.reason ? ` (${verdict.reason})` : ''}.`;
}

/** Where a running sub-agent's stop is kept beside the calls that can be detached (Task.stopSubagent). */
export function subagentStopKey(taskId: string): string {
  return `subagent:${taskId}`;
}

/** Why the calls after this outcome must not run, or undefined to go on. */
function stopReason(outcome: ToolOutcome, block: ToolUseBlock): string | undefined {
  switch (outcome.kind) {
    case 'rejected':
      return `the user denied the ${block.name} call before it`;
    case 'completed':
      return `${block.name} ended the task before it`;
    case 'new_task':
      return 'the task moved to a new task before it';
    default:
      return undefined;
  }
}

/** Logs a call that was not run, with the reason as its (error) result. */
/** How the error of a call left unexecuted (an earlier call of its response stopped the rest) begins. */
export const NOT_EXECUTED = 'Not executed because';

function skipToolCall(block: ToolUseBlock, env: ToolCallEnvironment, reason: string): void {
  const callId = `call-${env.log.events.length}`;
  env.log.append({ type: 'tool_requested', callId, tool: block.name, params: block.params, ...(block.id ? { toolUseId: block.id } : {}) });
  env.log.append({ type: 'tool_error', callId, tool: block.name, error: `${NOT_EXECUTED} ${reason}.`, mistake: false });
}
