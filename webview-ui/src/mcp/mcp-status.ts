import type { McpConfigProblemView, McpServerView } from '../../../src/shared/protocol.js';

/** The status in words next to the dot: connecting, connected, error, disabled, the reconnect attempt, or sign-in. */
export function mcpStatusLabel(server: McpServerView): string {
  if (server.status === 'connecting' && server.reconnect !== undefined) {
    return `reconnecting (attempt ${server.reconnect.attempt} of ${server.reconnect.maxAttempts})`;
  }
  if (server.status === 'connecting' && server.auth?.state === 'signing-in') return 'signing in (finish in the browser)';
  if (server.status === 'needs-auth') return 'needs sign-in';
  return server.status;
}

/** Where a problem is, in one line: `server "x", field "timeout"`, or the whole file. */
export function mcpProblemPlace(problem: McpConfigProblemView): string {
  const parts = [problem.server !== undefined ? `server "${problem.server}"` : undefined, problem.field !== undefined ? `field "${problem.field}"` : undefined];
  const place = parts.filter((part) => part !== undefined).join(', ');
  return place === '' ? 'the file' : place;
}

/** The last part of a path, for labels; the full path goes in the tooltip. */
export function fileName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts.length >= 2 && parts.at(-2) === '.smith' ? parts.slice(-2).join('/') : (parts.at(-1) ?? path);
}
