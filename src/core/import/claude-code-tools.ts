// Claude Code's tools as Smith's: which of its calls Smith has a tool for, and the parameters that call would have had.
import { isAbsolute, relative } from 'node:path';
import type { MappedCall } from './conversation-builder.js';

type Input = Readonly<Record<string, unknown>>;

/** Claude Code's call `name(input)` as Smith's call of the same job; undefined when Smith has no such tool (Task, NotebookEdit, …). */
export function mapClaudeCodeCall(name: string, input: Input, cwd: string | undefined): MappedCall | undefined {
  const path = (key: string) => workspacePath(cwd, str(input[key]));
  switch (name) {
    case 'Read': {
      const offset = whole(input.offset);
      const limit = whole(input.limit);
      const start = offset ?? (limit !== undefined ? 1 : undefined);
      return call('read_file', {
        path: path('file_path'),
        ...(start !== undefined ? { start_line: String(start) } : {}),
        ...(start !== undefined && limit !== undefined ? { end_line: String(start + limit - 1) } : {}),
      });
    }
    case 'Write':
      return call('write_to_file', { path: path('file_path'), content: str(input.content) });
    case 'Edit':
      return call('replace_in_file', { path: path('file_path'), diff: searchReplace([input]) });
    case 'MultiEdit':
      return call('replace_in_file', { path: path('file_path'), diff: searchReplace(Array.isArray(input.edits) ? (input.edits as Input[]) : []) });
    case 'Bash':
      return call('execute_command', { command: str(input.command), requires_approval: 'false' });
    case 'Grep':
      return call('search_files', {
        path: workspacePath(cwd, str(input.path) || '.'),
        regex: str(input.pattern),
        ...(str(input.glob) ? { file_pattern: str(input.glob) } : {}),
      });
    case 'Glob':
      // Smith lists a folder; the pattern's matches are in the result.
      return call('list_files', { path: workspacePath(cwd, str(input.path) || '.'), recursive: 'true' });
    case 'LS':
      return call('list_files', { path: path('path') || '.' });
    case 'WebFetch':
      return call('web_fetch', { url: str(input.url) });
    case 'WebSearch':
      return call('web_search', {
        query: str(input.query),
        ...(Array.isArray(input.allowed_domains) && input.allowed_domains.length > 0 ? { allowed_domains: input.allowed_domains.join(',') } : {}),
        ...(Array.isArray(input.blocked_domains) && input.blocked_domains.length > 0 ? { blocked_domains: input.blocked_domains.join(',') } : {}),
      });
    case 'TodoWrite':
      return call('update_todo_list', { todos: todoLines(input.todos) });
    default: {
      // mcp__server__tool: an MCP server's tool, as Claude Code names it.
      const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
      if (mcp) return call('use_mcp_tool', { server_name: mcp[1]!, tool_name: mcp[2]!, arguments: JSON.stringify(input) });
      return undefined;
    }
  }
}

/** A path as Smith's tools take it: relative to the workspace when inside it. */
export function workspacePath(cwd: string | undefined, path: string): string {
  if (!cwd || !isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

function call(tool: string, params: Record<string, string>): MappedCall {
  return { tool, params };
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
}

function whole(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** Claude Code's old_string/new_string edits as Cline-dialect SEARCH/REPLACE blocks. */
function searchReplace(edits: readonly Input[]): string {
  return edits.map((edit) => `------- SEARCH\n${str(edit.old_string)}\n=======\n${str(edit.new_string)}\n+++++++ REPLACE`).join('\n');
}

/** TodoWrite's items as update_todo_list's Markdown lines. */
function todoLines(todos: unknown): string {
  if (!Array.isArray(todos)) return '';
  return todos
    .map((todo: Input) => {
      const mark = todo.status === 'completed' ? 'x' : todo.status === 'in_progress' ? '-' : ' ';
      return `- [${mark}] ${str(todo.content)}`;
    })
    .join('\n');
}
