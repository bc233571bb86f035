import { isTool, toolEntry } from './tool-catalogue.js';

/** What a call is about: a command (monospace), a path (its file name never elided), or other text. */
export interface ToolSubject {
  readonly kind: 'command' | 'path' | 'text';
  readonly text: string;
}

/**
 * What a tool call is about, in one line: the command, the search and where, the path, the MCP
 * server and tool, the URL or query. The panel's cards and the CLI's progress lines both use it.
 */
export function toolSubject(tool: string, params: Readonly<Record<string, string>>): ToolSubject | undefined {
  if (isTool(tool, 'use_subagents') && params.prompts !== undefined) return { kind: 'text', text: questionsText(params.prompts) };
  if (params.command !== undefined) return { kind: 'command', text: params.command };
  if (isTool(tool, 'use_skill') && params.skill_name !== undefined) return { kind: 'text', text: params.skill_name };
  if (isTool(tool, 'browser_action') && params.action !== undefined) {
    // What the action works on: the URL, the element, the key or text, the size.
    const target = params.url ?? params.element ?? params.selector ?? params.coordinate ?? params.text ?? params.size;
    return { kind: 'text', text: target === undefined ? params.action : `${params.action} ${target}` };
  }
  if (isTool(tool, 'search_files') && params.regex !== undefined) {
    return { kind: 'text', text: `/${params.regex}/${params.path !== undefined ? ` in ${params.path}` : ''}` };
  }
  if (params.path !== undefined) return { kind: 'path', text: params.path };
  if (params.server_name !== undefined) {
    const target = params.tool_name ?? params.uri;
    return { kind: 'text', text: target === undefined ? params.server_name : `${params.server_name} › ${target}` };
  }
  const other = params.url ?? params.uri ?? params.query;
  return other === undefined ? undefined : { kind: 'text', text: other };
}

/** One item of a use_subagents call: a question, or an agent's or mode's task named by who does it. */
function itemText(item: unknown): string {
  if (typeof item !== 'object' || item === null) return String(item);
  const { prompt, agent, mode } = item as Record<string, unknown>;
  const who = typeof agent === 'string' ? agent : typeof mode === 'string' ? mode : undefined;
  return `${who ? `${who}: ` : ''}${String(prompt)}`;
}

/** "2 questions: the first one… | fixer: the second…" for a use_subagents call (its prompts, a JSON array of questions or objects). */
function questionsText(raw: string): string {
  try {
    const prompts = JSON.parse(raw) as unknown;
    if (Array.isArray(prompts))
      return `${prompts.length} question${prompts.length === 1 ? '' : 's'}: ${prompts.map((p) => itemText(p).split('\n')[0]).join(' | ')}`;
  } catch {
    // A call the model has not finished writing, or a malformed one: shown as written.
  }
  return raw;
}

/**
 * A tool call's title as people read it ("Edit" src/x.ts, "Run" npm test): the verb, followed on
 * the card by the subject. A new file is "Create"; a tool Smith does not know keeps its name.
 */
export function toolVerb(tool: string, created = false): string {
  const entry = toolEntry(tool);
  if (!entry) return tool;
  return (created ? entry.createdVerb : undefined) ?? entry.verb;
}
