import type { SubagentFacts } from '../../shared/tool-details.js';
import { builtInSpec, mistake, type ToolContext, type ToolHandler } from '../tool-kit/tool-spec.js';

/** Questions one call may ask (they run a few at a time). */
const MAX_SUBAGENT_PROMPTS = 10;

/** Characters of one report that reach the parent's context: a report is meant to be concise. */
const MAX_REPORT_CHARS = 8_000;

/** Starts the child tasks of a call and returns what each reported (see subagent-runner.ts). */
type StartSubagents = (prompts: readonly string[], context: ToolContext) => Promise<SubagentFacts[]>;

/**
 * use_subagents: research questions answered by child tasks in parallel, each with its own context
 * window and read-only tools; only their concise reports enter this task's context.
 */
export function createUseSubagentsTool(start: StartSubagents, maxParallel: () => number): ToolHandler {
  return {
    spec: builtInSpec({
      name: 'use_subagents',
      description: `Start sub-agents that research questions in parallel (${maxParallel()} at a time, at most ${MAX_SUBAGENT_PROMPTS} per call). Each sub-agent is a separate agent with its own context window that can read, list and search files (not edit them or run commands) and answers with a concise report; only the reports come back to you. Use it for independent questions whose investigation would fill your context with files you do not need afterwards (e.g. "where is X configured and how is it used?"). Each question must stand on its own: the sub-agents do not see this conversation.`,
      params: [{ name: 'prompts', required: true, description: 'A JSON array of strings: one self-contained question or research task per sub-agent.' }],
      example:
        '<use_subagents>\n<prompts>["Find where the HTTP client is configured and list its retry settings.", "List the tests that cover src/auth and what each checks."]</prompts>\n</use_subagents>',
    }),
    async execute(params, context) {
      const prompts = parsePrompts(params.prompts ?? '');
      if (typeof prompts === 'string') return mistake(prompts);
      const answer = await context.approve({
        summary: `Start ${prompts.length} sub-agent${prompts.length === 1 ? '' : 's'}: ${prompts.map((p) => oneLine(p)).join(' | ')}`,
      });
      if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };
      const children = await start(prompts, context);
      return { kind: 'result', output: children.map((child, index) => reportText(index, child)).join('\n\n'), details: { subagents: children } };
    },
  };
}

/** The prompts of a call, or what is wrong with them. */
function parsePrompts(raw: string): string[] | string {
  const format = 'prompts must be a JSON array of strings, e.g. ["Find where X is configured.", "List the tests of Y."]';
  let value: unknown;
  try {
    value = JSON.parse(raw.trim());
  } catch {
    return `use_subagents: ${format}.`;
  }
  if (!Array.isArray(value) || value.length === 0 || !value.every((p) => typeof p === 'string' && p.trim() !== ''))
    return `use_subagents: ${format}, with at least one non-empty question.`;
  if (value.length > MAX_SUBAGENT_PROMPTS)
    return `use_subagents: at most ${MAX_SUBAGENT_PROMPTS} questions per call; got ${value.length}. Ask the most important ones first.`;
  return value as string[];
}

function reportText(index: number, child: SubagentFacts): string {
  const head = `Sub-agent ${index + 1} (${child.prompt.length > 100 ? `${child.prompt.slice(0, 99)}…` : child.prompt})`;
  if (child.status !== 'completed') return `${head} ${child.status === 'cancelled' ? 'was stopped' : 'failed'}: ${child.error ?? 'no report'}`;
  const report = child.report ?? '';
  const cut = report.length > MAX_REPORT_CHARS ? `${report.slice(0, MAX_REPORT_CHARS)}\n[Report cut at ${MAX_REPORT_CHARS} characters.]` : report;
  return `${head} reported:\n${cut}`;
}

function oneLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
