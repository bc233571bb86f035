// The tools Cline and Roo Code write as XML in their replies (the protocol Smith speaks too), and the Smith tool each one is.
import type { ToolGrammar } from '../parse/types.js';
import type { MappedCall } from './conversation-builder.js';

/** Each tool's parameters as Cline and Roo Code write them, so the parser reads their calls and leaves other tags as text. */
const SOURCE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  execute_command: ['command', 'requires_approval', 'cwd', 'timeout'],
  read_file: ['path', 'start_line', 'end_line', 'args'],
  write_to_file: ['path', 'content', 'line_count'],
  replace_in_file: ['path', 'diff'],
  apply_diff: ['path', 'diff', 'start_line', 'end_line', 'args'],
  insert_content: ['path', 'line', 'content'],
  search_and_replace: ['path', 'search', 'replace', 'use_regex', 'ignore_case', 'start_line', 'end_line'],
  search_files: ['path', 'regex', 'file_pattern'],
  list_files: ['path', 'recursive'],
  list_code_definition_names: ['path'],
  browser_action: ['action', 'url', 'coordinate', 'text', 'size'],
  use_mcp_tool: ['server_name', 'tool_name', 'arguments'],
  access_mcp_resource: ['server_name', 'uri'],
  ask_followup_question: ['question', 'options', 'follow_up'],
  attempt_completion: ['result', 'command'],
  plan_mode_respond: ['response', 'options'],
  new_task: ['context', 'mode', 'message', 'todos'],
  switch_mode: ['mode_slug', 'reason'],
  codebase_search: ['query', 'path'],
  fetch_instructions: ['task'],
  update_todo_list: ['todos'],
  web_fetch: ['url'],
  new_rule: ['path', 'content'],
  condense: ['context'],
  summarize_task: ['context'],
  load_mcp_documentation: [],
};

/** The grammar of Cline's and Roo Code's XML tool calls. */
export const CLINE_GRAMMAR: ToolGrammar = { tools: new Map(Object.entries(SOURCE_TOOLS)) };

/** Tools Smith has under the same name and with the same parameters (the protocol is the same). */
const SAME_TOOLS = new Set([
  'execute_command',
  'read_file',
  'write_to_file',
  'replace_in_file',
  'search_files',
  'list_files',
  'list_code_definition_names',
  'browser_action',
  'use_mcp_tool',
  'access_mcp_resource',
  'ask_followup_question',
  'attempt_completion',
  'plan_mode_respond',
  'update_todo_list',
  'web_fetch',
  'new_rule',
  'condense',
]);

/** A Cline or Roo Code call as Smith's; undefined when Smith has no such tool (switch_mode, codebase_search, …). */
export function mapClineCall(name: string, params: Readonly<Record<string, string>>): MappedCall | undefined {
  const known = SOURCE_TOOLS[name];
  // Only the parameters the tool has; Roo's read_file `args` (several files in one call) has no Smith form.
  const kept = Object.fromEntries(Object.entries(params).filter(([key]) => known?.includes(key) && key !== 'args' && key !== 'line_count'));
  if ('args' in params && !('path' in params)) return undefined;
  if (SAME_TOOLS.has(name)) return { tool: name, params: kept };
  // Roo Code's apply_diff takes the SEARCH/REPLACE dialect Smith reads too.
  if (name === 'apply_diff') return { tool: 'replace_in_file', params: { path: kept.path ?? '', diff: kept.diff ?? '' } };
  // Cline's new_task hands over with a context, as Smith's does; Roo Code's starts a sub-task in a mode.
  if (name === 'new_task' && kept.context !== undefined) return { tool: 'new_task', params: { context: kept.context } };
  return undefined;
}

/** A native call's input (newer Cline and Roo Code versions call tools natively) as the XML parameters it stands for. */
export function nativeParams(input: Readonly<Record<string, unknown>>): Record<string, string> {
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));
}
