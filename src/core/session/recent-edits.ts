import type { TaskEvent, ToolRequested } from '../log/events.js';

const EDIT_TOOLS = new Set(['write_to_file', 'replace_in_file', 'new_rule']);

/** Files the task changed recently, for the environment details (newest first, capped). */
export class RecentEdits {
  private readonly requested = new Map<string, ToolRequested>();
  private readonly paths: string[] = [];

  constructor(private readonly limit = 10) {}

  observe(event: TaskEvent): void {
    if (event.type === 'tool_requested' && EDIT_TOOLS.has(event.tool)) this.requested.set(event.callId, event);
    if (event.type !== 'tool_result') return;
    const path = this.requested.get(event.callId)?.params.path;
    if (!path) return;
    const existing = this.paths.indexOf(path);
    if (existing !== -1) this.paths.splice(existing, 1);
    this.paths.unshift(path);
    this.paths.length = Math.min(this.paths.length, this.limit);
  }

  /** The environment section, or '' when nothing was edited. */
  summary(): string {
    return this.paths.length ? `# Recently modified files\n${this.paths.join('\n')}` : '';
  }
}
