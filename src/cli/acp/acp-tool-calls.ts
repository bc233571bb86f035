// How a Smith tool call looks to an ACP client: its kind (the client's icon), title and locations,
// all derived from the tool catalogue's row and the call's parameters.
import { resolve } from 'node:path';
import type { ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import { isTool, toolEntry } from '../../shared/tool-catalogue.js';
import { toolSubject } from '../../shared/tool-subject.js';
import { parseQuestionOptions } from '../../shared/question-options.js';

/** The client's kind for a tool: from its catalogue group, searches and fetches told apart. */
export function acpToolKind(tool: string): ToolKind {
  if (isTool(tool, 'search_files') || isTool(tool, 'list_files') || isTool(tool, 'web_search') || isTool(tool, 'search_mcp_tools')) return 'search';
  if (isTool(tool, 'web_fetch') || isTool(tool, 'browser_action')) return 'fetch';
  switch (toolEntry(tool)?.group) {
    case 'read':
      return isTool(tool, 'use_subagents') ? 'think' : 'read';
    case 'edit':
      return 'edit';
    case 'command':
      return 'execute';
    default:
      return 'other';
  }
}

/** "Run npm test", "Edit src/app.ts": the catalogue's verb and what the call is about. */
export function acpToolTitle(tool: string, params: Readonly<Record<string, string>>): string {
  const verb = toolEntry(tool)?.verb ?? tool;
  const subject = toolSubject(tool, params)?.text;
  return subject ? `${verb} ${subject}` : verb;
}

/** The file a call works on, as an absolute path (ACP paths are absolute); none when it names no path. */
export function acpToolLocations(params: Readonly<Record<string, string>>, cwd: string, line?: number): ToolCallLocation[] {
  if (params.path === undefined || params.path === '') return [];
  return [{ path: resolve(cwd, params.path), ...(line !== undefined && line > 0 ? { line } : {}) }];
}

/** A question to the user as the agent's message: the question, then the answers it offers as a list. */
export function questionText(question: string, options: readonly string[]): string {
  return `${question}${options.length > 0 ? `\n\n${options.map((o) => `- ${o}`).join('\n')}` : ''}`;
}

/** Tools that ask the user through the host's questions (a live turn shows the question when it is asked). */
export function asksUser(tool: string): boolean {
  return isTool(tool, 'ask_followup_question') || isTool(tool, 'plan_mode_respond');
}

/**
 * Tools whose call is a message to the user rather than work: their words are sent as the agent's
 * message (attempt_completion's result, a plan, a question) and the todo list as the plan.
 */
export function spokenText(tool: string, params: Readonly<Record<string, string>>): string | undefined {
  if (isTool(tool, 'attempt_completion')) return `${params.result ?? ''}${params.command ? `\n\nSuggested command: \`${params.command}\`` : ''}`;
  if (isTool(tool, 'plan_mode_respond')) return params.response ?? '';
  if (isTool(tool, 'ask_followup_question')) {
    const parsed = parseQuestionOptions(params.options);
    return questionText(params.question ?? '', Array.isArray(parsed) ? parsed : []);
  }
  return undefined;
}
