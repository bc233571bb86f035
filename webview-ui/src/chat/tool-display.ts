import { toolEntry } from '../../../src/shared/tool-catalogue.js';
import type { ToolStatus } from '../../../src/shared/ui-messages.js';

/** The codicon of a tool's row in the catalogue; a tool Smith does not know gets a generic one. */
export function toolIcon(tool: string): string {
  return toolEntry(tool)?.icon ?? 'tools';
}

/** Tools whose card shows a shell command and its live output. */
export function isCommandTool(tool: string): boolean {
  return toolEntry(tool)?.group === 'command';
}

/**
 * A path split where a narrow card may elide it: the folders, and the last name with the separator
 * before it (`src/app` + `/main.ts`), so an elided folder part still reads as one.
 */
export function splitPath(path: string): { readonly dir: string; readonly name: string } {
  const trimmed = path.replace(/[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return cut <= 0 ? { dir: '', name: path } : { dir: path.slice(0, cut), name: path.slice(cut) };
}

const STATUS: Readonly<Record<ToolStatus, { icon: string; label: string }>> = {
  running: { icon: 'loading', label: 'Running' },
  awaiting_approval: { icon: 'shield', label: 'Waiting for approval' },
  rejected: { icon: 'circle-slash', label: 'Rejected' },
  done: { icon: 'check', label: 'Done' },
  failed: { icon: 'error', label: 'Failed' },
  interrupted: { icon: 'debug-stop', label: 'Interrupted' },
};

/** Icon and words for a tool call's status. */
export function toolStatusDisplay(status: ToolStatus): { icon: string; label: string } {
  return STATUS[status];
}
