import { describeMcpConfigProblem, type McpConfig, type McpServerConfig } from './mcp-config.js';
import { diffMcpConfigs } from './mcp-config-diff.js';
import { slotFor, type HubContext } from './mcp-hub-state.js';
import type { McpServerLifecycle } from './mcp-server-lifecycle.js';

/**
 * Brings the hub's servers in line with a configuration: adds, removes and restarts only what
 * changed; autoApprove and timeout changes apply live; an invalid entry becomes a server in error.
 * Resolves when the new connections settled.
 */
export async function applyMcpConfig(context: HubContext, lifecycle: McpServerLifecycle, config: McpConfig): Promise<void> {
  const before = new Map<string, McpServerConfig>();
  for (const slot of context.slots.values()) if (slot.config) before.set(slot.name, slot.config);
  const diff = diffMcpConfigs(before, config.servers);
  const work: Promise<void>[] = [];
  for (const name of diff.removed) {
    const slot = context.slots.get(name)!;
    slot.config = undefined;
    if (!config.invalid.has(name)) {
      context.slots.delete(name);
      work.push(lifecycle.stop(slot));
    }
  }
  for (const [name, problem] of config.invalid) {
    const slot = slotFor(context, name);
    slot.config = undefined;
    slot.invalid = problem;
    work.push(lifecycle.stop(slot));
    slot.status = 'error';
    slot.error = `Invalid configuration: ${describeMcpConfigProblem(problem)}`;
  }
  for (const slot of [...context.slots.values()]) {
    if (slot.invalid && !config.invalid.has(slot.name) && !config.servers.has(slot.name)) context.slots.delete(slot.name);
  }
  for (const name of [...diff.added, ...diff.restarted]) {
    const slot = slotFor(context, name);
    slot.config = config.servers.get(name)!;
    slot.invalid = undefined;
    slot.disabledOverride = undefined;
    slot.autoSignInDone = undefined;
    slot.attempts = 0;
    // Set now, not once the old connection has closed: a task may ask whenReady at once.
    slot.waitUntil = Date.now() + slot.config.timeoutSeconds * 1000;
    work.push(lifecycle.start(slot));
  }
  for (const name of diff.updated) context.slots.get(name)!.config = config.servers.get(name)!;
  context.emitChange();
  await Promise.all(work);
}
