import type { AssistantBlock } from '../parse/types.js';
import type { ToolRegistry } from '../tool-kit/tool-registry.js';
import type { TaskLog } from '../log/task-log.js';

/** Tells the model it used no tool, naming a tag that looked like a tool but is not one. */
export function noteMissingTool(log: TaskLog, tools: ToolRegistry, blocks: readonly AssistantBlock[], allowedTools: ReadonlySet<string>): void {
  const text = blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('\n');
  const unknown = [...text.matchAll(/<([a-z][a-z0-9]*(?:_[a-z0-9]+)+)>/g)].map((m) => m[1]!).find((name) => !tools.get(name));
  if (!unknown) {
    log.append({ type: 'no_tool_used' });
    return;
  }
  log.append({
    type: 'tool_error',
    callId: `call-${log.events.length}`,
    tool: unknown,
    error: `"${unknown}" is not a tool. Use one of: ${[...allowedTools].join(', ')}.`,
    mistake: true,
  });
}
