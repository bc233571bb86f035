import type { TaskEvent } from '../log/events.js';
import type { ToolRequested } from '../log/tool-events.js';
import { toolEntry } from '../../shared/tool-catalogue.js';

/** Files the task changed recently, for the environment details (newest first, capped). */
export class RecentEdits {
  private readonly requested = new Map<string, ToolRequested>();
  private readonly paths: string[] = [];

  constructor(private readonly limit = 10) {}

  observe(event: TaskEvent): void {
    if (event.type === 'tool_requested' && toolEntry(event.tool)?.group === 'edit') this.requested.set(event.callId, event);
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
