// A replay runs with no one to ask: its approvals and answers are the original run's.
import type { ApprovalAnswer, ApprovalPort, ApprovalRequest, QuestionPort } from '../ports.js';
import type { ToolGroup } from '../../shared/tool-catalogue.js';
import { type CallDecision, callKey, type ReplayPlan } from './replay-plan.js';

/** What the model is told when a replayed call has no approval in the original run. */
export const NOT_APPROVED_IN_ORIGINAL = 'Not approved: this is a replay, and it approves only the calls the user approved in the original run.';

/**
 * Approves only what the original run approved. A call matching one of the original's by callKey
 * (the same tool on the same path, command or MCP tool) gets the original's decisions in order
 * (the last one again when the replay makes the call more often), with the user's feedback.
 * Another call is approved when the original's auto-approve policy visibly covered its kind
 * (edits, commands, the commands the model called safe, MCP tools, reads), or when it is a read
 * inside the workspace, as every run's defaults allow; anything else is rejected.
 */
export class ReplayApprovals implements ApprovalPort {
  private readonly used = new Map<string, number>();
  private covered: Set<string> | undefined;

  constructor(
    private readonly plan: Pick<ReplayPlan, 'decisions' | 'policyApproved'>,
    private readonly groupOf: (tool: string) => ToolGroup | undefined,
  ) {}

  async ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
    const params = request.params ?? {};
    const decision = this.next(callKey(request.tool, params));
    if (decision)
      return decision.approved
        ? { approved: true, ...(decision.feedback ? { feedback: decision.feedback } : {}) }
        : { approved: false, ...(decision.feedback ? { feedback: decision.feedback } : {}) };
    // A reason means the call is out of the ordinary (outside the workspace, an ignored path, a rule that asks): only an exact match approves it.
    if (request.reason === undefined) {
      const group = this.groupOf(request.tool);
      if (group === 'read') return { approved: true };
      const covered = this.coveredKinds();
      if (group !== undefined && (covered.has(group) || (group === 'command' && params.requires_approval === 'false' && covered.has('safe-command'))))
        return { approved: true };
    }
    return { approved: false, feedback: NOT_APPROVED_IN_ORIGINAL };
  }

  /** The kinds of call the original's policy let through: tool groups, and 'safe-command' when only commands called safe were seen. */
  private coveredKinds(): Set<string> {
    if (this.covered) return this.covered;
    this.covered = new Set();
    for (const call of this.plan.policyApproved) {
      const group = this.groupOf(call.tool);
      if (group === 'command' && call.params.requires_approval === 'false') this.covered.add('safe-command');
      else if (group !== undefined) this.covered.add(group);
    }
    return this.covered;
  }

  private next(key: string): CallDecision | undefined {
    const list = this.plan.decisions.get(key);
    if (!list || list.length === 0) return undefined;
    const index = this.used.get(key) ?? 0;
    this.used.set(key, index + 1);
    return list[Math.min(index, list.length - 1)];
  }
}

/** The model's questions get the user's original answers in order; none are left: no one answers. */
export class ReplayQuestions implements QuestionPort {
  private index = 0;

  constructor(private readonly answers: readonly string[]) {}

  async ask(_question: string, options: readonly string[]): Promise<string | undefined> {
    // The loop's own "reached a limit, continue?" question: a replay gets the allowance once, as a headless run does.
    if (options.length === 2 && options[0] === 'Continue' && options[1] === 'Stop') return undefined;
    return this.answers[this.index++];
  }
}
