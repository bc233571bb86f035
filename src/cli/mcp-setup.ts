import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeMcpConfigProblem, mcpConfigSources, type McpConfig } from '../core/mcp/mcp-config.js';
import { McpConfigWatcher } from '../core/mcp/mcp-config-watcher.js';
import { McpHub } from '../core/mcp/mcp-hub.js';
import type { McpPromptOptions } from '../core/mcp/mcp-prompt.js';
import { mcpTaskWiring, type McpTaskWiring } from '../core/mcp/mcp-tools.js';
import { UsageError } from './args.js';

/** The CLI's MCP servers for one run: the hub, what to wire into the task environment, and cleanup. */
export interface CliMcp {
  readonly hub: McpHub;
  readonly wiring: McpTaskWiring;
  dispose(): Promise<void>;
}

/** Options for starting the CLI's MCP servers. */
export interface CliMcpOptions extends McpPromptOptions {
  readonly cwd: string;
  readonly storageDir: string;
  /** --mcp-config FILE: read after the global and workspace files, so its servers win. */
  readonly configFile?: string;
  readonly version?: string;
  /** Where config problems and servers that failed to connect are reported. */
  warn(message: string): void;
}

/**
 * Loads the config files, connects every enabled server (waiting for them, so the first request
 * already lists their tools) and watches the files for changes while the CLI runs.
 */
export async function startCliMcp(options: CliMcpOptions): Promise<CliMcp> {
  if (options.configFile && !existsSync(resolve(options.cwd, options.configFile))) {
    throw new UsageError(`--mcp-config file not found: ${options.configFile}`);
  }
  const hub = new McpHub({ clientInfo: { name: 'smith', version: options.version ?? '0.0.0' } });
  let reported = new Set<string>();
  const report = (config: McpConfig) => {
    const now = new Set(config.problems.map(describeMcpConfigProblem));
    for (const line of now) if (!reported.has(line)) options.warn(`Warning: ${line}`);
    reported = now;
  };
  const watcher = new McpConfigWatcher({
    sources: mcpConfigSources({ cwd: options.cwd, storageDir: options.storageDir, ...(options.configFile ? { extraFile: options.configFile } : {}) }),
    onConfig: (config) => {
      report(config);
      void hub.applyConfig(config);
    },
  });
  report(watcher.current());
  await hub.applyConfig(watcher.current());
  for (const server of hub.servers()) {
    if (server.status === 'error' && server.config) options.warn(`Warning: MCP server "${server.name}" is unavailable: ${server.error}`);
  }
  watcher.start();
  return {
    hub,
    wiring: mcpTaskWiring(hub, options),
    dispose: async () => {
      watcher.dispose();
      await hub.dispose();
    },
  };
}
