import { isDeepStrictEqual } from 'node:util';
import type { McpServerConfig } from './mcp-config.js';

/** What changed between two configurations, by server name. */
interface McpConfigDiff {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** The connection must be recreated (or torn down / brought up for `disabled`). */
  readonly restarted: readonly string[];
  /** Only settings applied live (autoApprove, timeout, description) changed. */
  readonly updated: readonly string[];
}

/** Compares configurations; only connection-relevant fields (transport, disabled) force a restart. */
export function diffMcpConfigs(before: ReadonlyMap<string, McpServerConfig>, after: ReadonlyMap<string, McpServerConfig>): McpConfigDiff {
  const added: string[] = [];
  const removed: string[] = [];
  const restarted: string[] = [];
  const updated: string[] = [];
  for (const [name, next] of after) {
    const previous = before.get(name);
    if (!previous) added.push(name);
    else if (needsRestart(previous, next)) restarted.push(name);
    else if (!isDeepStrictEqual(previous, next)) updated.push(name);
  }
  for (const name of before.keys()) if (!after.has(name)) removed.push(name);
  return { added, removed, restarted, updated };
}

/** True when the way to reach the server changed, or it was enabled or disabled. */
function needsRestart(previous: McpServerConfig, next: McpServerConfig): boolean {
  return previous.disabled !== next.disabled || !isDeepStrictEqual(previous.transport, next.transport);
}
