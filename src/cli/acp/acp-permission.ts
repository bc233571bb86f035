// Smith's approval of one tool call as ACP's `session/request_permission`, and the client's choice
// as Smith's answer. "Always allow" writes the narrowest rules that allow the call again, as the
// panel's button does, to the settings file the option names.
import { resolve } from 'node:path';
import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse, ToolCallContent } from '@agentclientprotocol/sdk';
import type { ApprovalAnswer, ApprovalRequest } from '../../core/ports.js';
import type { AllowScope } from '../../core/permissions/remember-allow-rules.js';
import { acpToolKind, acpToolLocations, acpToolTitle } from './acp-tool-calls.js';

/** The option ids Smith offers; the client answers with one of them. */
export const PERMISSION_OPTION_IDS = {
  allowOnce: 'allow-once',
  allowAlwaysWorkspace: 'allow-always-workspace',
  allowAlwaysUser: 'allow-always-user',
  reject: 'reject-once',
} as const;

/** What the client's choice means for Smith: the answer, and the rules to remember first for "always". */
export interface PermissionChoice {
  readonly answer: ApprovalAnswer;
  readonly remember?: { readonly rules: readonly string[]; readonly scope: AllowScope };
}

/** The request for one call: what it does (a diff for an edit, the command), and the options. */
export function permissionRequest(sessionId: string, request: ApprovalRequest, cwd: string): RequestPermissionRequest {
  const params = request.params ?? {};
  const content: ToolCallContent[] = [];
  if (request.proposal && request.path !== undefined) {
    content.push({
      type: 'diff',
      path: resolve(cwd, request.path),
      oldText: request.proposal.isNewFile ? null : request.proposal.original,
      newText: request.proposal.proposed,
    });
  } else if (request.command !== undefined) {
    content.push({ type: 'content', content: { type: 'text', text: request.command } });
  }
  if (request.reason) content.push({ type: 'content', content: { type: 'text', text: request.reason } });
  const options: PermissionOption[] = [{ optionId: PERMISSION_OPTION_IDS.allowOnce, name: 'Allow', kind: 'allow_once' }];
  if (request.allowRules && request.allowRules.length > 0) {
    const rules = request.allowRules.join(', ');
    options.push(
      { optionId: PERMISSION_OPTION_IDS.allowAlwaysWorkspace, name: `Always allow in this workspace (${rules})`, kind: 'allow_always' },
      { optionId: PERMISSION_OPTION_IDS.allowAlwaysUser, name: `Always allow everywhere (${rules})`, kind: 'allow_always' },
    );
  }
  options.push({ optionId: PERMISSION_OPTION_IDS.reject, name: 'Reject', kind: 'reject_once' });
  return {
    sessionId,
    toolCall: {
      toolCallId: request.callId,
      title: request.summary || acpToolTitle(request.tool, params),
      kind: acpToolKind(request.tool),
      status: 'pending',
      content,
      locations: request.path !== undefined ? acpToolLocations({ path: request.path }, cwd) : acpToolLocations(params, cwd),
      rawInput: params,
    },
    options,
  };
}

/** The client's choice as Smith's answer; an option Smith did not offer is a rejection. */
export function permissionChoice(response: RequestPermissionResponse, request: ApprovalRequest): PermissionChoice {
  const outcome = response.outcome;
  if (outcome.outcome === 'cancelled') return { answer: { approved: false, feedback: 'The request was cancelled.' } };
  const rules = request.allowRules ?? [];
  switch (outcome.optionId) {
    case PERMISSION_OPTION_IDS.allowOnce:
      return { answer: { approved: true } };
    case PERMISSION_OPTION_IDS.allowAlwaysWorkspace:
    case PERMISSION_OPTION_IDS.allowAlwaysUser:
      if (rules.length === 0) return { answer: { approved: false, feedback: 'No rule can allow this call always; it was not approved.' } };
      return {
        answer: { approved: true },
        remember: { rules, scope: outcome.optionId === PERMISSION_OPTION_IDS.allowAlwaysUser ? 'user' : 'workspace' },
      };
    case PERMISSION_OPTION_IDS.reject:
      return { answer: { approved: false } };
    default:
      return { answer: { approved: false, feedback: `Not approved: the client chose an option Smith did not offer (${outcome.optionId}).` } };
  }
}
