import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeMcpConfigProblem, mcpConfigSources, type McpConfig } from '../core/mcp/mcp-config.js';
import type { McpServerConfig } from '../core/mcp/mcp-config-types.js';
import { McpConfigWatcher } from '../core/mcp/mcp-config-watcher.js';
import { FileCredentialStore } from '../core/mcp/mcp-credential-store.js';
import { McpHub } from '../core/mcp/mcp-hub.js';
import type { McpRoot } from '../core/mcp/mcp-connection.js';
import type { McpElicitor } from '../core/mcp/mcp-elicitation.js';
import { DEFAULT_SIGN_IN_TIMEOUT_MS } from '../core/mcp/mcp-sign-in.js';
import type { McpPromptOptions } from '../core/mcp/mcp-prompt.js';
import { mcpCredentialValues } from '../core/mcp/mcp-secrets.js';
import { mcpTaskWiring, type McpTaskWiring } from '../core/tools/mcp-tools.js';
import type { SecretRedactor } from '../core/secrets/secret-redactor.js';
import { describeWorkspaceServers, workspaceFileNames, WorkspaceTrust, type UntrustedWorkspaceServers } from '../core/mcp/workspace-trust.js';
import { UsageError } from './usage-error.js';
import type { LineSource } from './line-source.js';
import type { Style } from './style.js';

/** The CLI's MCP servers for one run: the hub, what to wire into the task environment, and cleanup. */
export interface CliMcp {
  readonly hub: McpHub;
  readonly wiring: McpTaskWiring;
  dispose(): Promise<void>;
}

/** Options for starting the CLI's MCP servers. */
interface CliMcpOptions extends McpPromptOptions {
  readonly cwd: string;
  readonly storageDir: string;
  /** --mcp-config FILE: read after the global and workspace files, so its servers win. */
  readonly configFile?: string;
  readonly version?: string;
  /** --trust-workspace: start the workspace's .smith/mcp.json servers without asking. */
  readonly trustWorkspace?: boolean;
  /**
   * Asks the user on a terminal whether to start the workspace's servers (the lines describe them);
   * absent when nobody can answer (no terminal, --output json), and then they are not started.
   */
  askTrust?(servers: readonly string[], files: string): Promise<boolean | undefined>;
  /** Answers servers' forms (a terminal prompt, or a decline that says why). */
  readonly elicitor?: McpElicitor;
  /** The workspace folders offered to servers as roots. */
  readonly roots?: readonly McpRoot[];
  /** Gets the credentials of the configured servers (env and headers), to keep them out of logs and requests. */
  readonly redactor?: SecretRedactor;
  /** How long a sign-in waits for the browser (default 5 minutes). */
  readonly signInTimeoutMs?: number;
  /**
   * Starts a server's OAuth sign-in on its own when it first asks (true on a terminal): without
   * anyone to open the address (CI, piped input) the server just needs sign-in and nothing waits.
   */
  readonly signInOnItsOwn?: boolean;
  /** Servers an editor gave for this session (`smith acp`): run beside the configured ones, winning over one of the same name. */
  readonly extraServers?: readonly McpServerConfig[];
  /** Where config problems and servers that failed to connect are reported. */
  warn(message: string): void;
}

/**
 * Loads the config files, starts connecting every enabled server in the background and watches
 * the files for changes while the CLI runs. A task's request waits for a server still connecting
 * at most that server's `timeout` (`wiring.ready`), then goes on without it and says so once. The
 * workspace's own servers start only when the workspace is trusted (see WorkspaceTrust).
 */
export async function startCliMcp(options: CliMcpOptions): Promise<CliMcp> {
  if (options.configFile && !existsSync(resolve(options.cwd, options.configFile))) {
    throw new UsageError(`--mcp-config file not found: ${options.configFile}`);
  }
  const hub = new McpHub({
    clientInfo: { name: 'smith', version: options.version ?? '0.0.0' },
    ...(options.elicitor ? { elicitor: options.elicitor } : {}),
    ...(options.roots ? { roots: options.roots } : {}),
    signIn: {
      store: new FileCredentialStore(options.storageDir),
      // No browser is started from a terminal (it may be remote, or a CI job): the address is printed.
      openBrowser: (url, server) =>
        options.warn(
          `MCP server "${server}" asks you to sign in. Open this address in a browser on this machine (Smith waits up to ${Math.round((options.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS) / 60_000)} min for it):\n  ${url}`,
        ),
      ...(options.signInTimeoutMs !== undefined ? { timeoutMs: options.signInTimeoutMs } : {}),
      automatic: options.signInOnItsOwn ?? true,
    },
  });
  const trust = new WorkspaceTrust({ storageDir: options.storageDir, trustAll: options.trustWorkspace === true });
  let reported = new Set<string>();
  let hinted: string | undefined;
  const report = (config: McpConfig) => {
    const now = new Set(config.problems.map(describeMcpConfigProblem));
    for (const line of now) if (!reported.has(line)) options.warn(`Warning: ${line}`);
    reported = now;
    if (config.untrusted && config.untrusted.fingerprint !== hinted) {
      hinted = config.untrusted.fingerprint;
      options.warn(untrustedHint(config.untrusted));
    }
  };
  let ready = false;
  const watcher = new McpConfigWatcher({
    sources: mcpConfigSources({ cwd: options.cwd, storageDir: options.storageDir, ...(options.configFile ? { extraFile: options.configFile } : {}) }),
    workspaceTrust: trust.check,
    onConfig: (read) => {
      if (!ready) return;
      const config = withServers(read, options.extraServers);
      options.redactor?.set('mcp', mcpCredentialValues(config));
      report(config);
      void hub.applyConfig(config);
    },
  });
  let config = watcher.current();
  const pending = config.untrusted;
  if (pending?.decision === 'unknown' && options.askTrust) {
    const answer = await options.askTrust(describeWorkspaceServers(pending.servers), workspaceFileNames(pending));
    if (answer !== undefined) {
      trust.remember(pending.workspace, pending.fingerprint, answer);
      config = watcher.refresh();
    }
  }
  ready = true;
  config = withServers(config, options.extraServers);
  options.redactor?.set('mcp', mcpCredentialValues(config));
  report(config);
  void hub.applyConfig(config);
  watcher.start();
  // Each server that could not be used when a request went out is reported once.
  const told = new Set<string>();
  const waitForServers = async (signal: AbortSignal) => {
    await hub.whenReady(signal);
    for (const server of hub.servers()) {
      if (told.has(server.name) || !server.config) continue;
      if (server.status === 'error') options.warn(`Warning: MCP server "${server.name}" is unavailable: ${server.error}`);
      else if (server.status === 'needs-auth')
        options.warn(
          `Warning: MCP server "${server.name}" needs you to sign in (${server.error ?? 'no sign-in yet'}); run smith on a terminal, or /mcp login ${server.name} in its REPL. The task goes on without it.`,
        );
      else if (hub.stillConnecting().includes(server.name)) {
        options.warn(
          `Warning: MCP server "${server.name}" did not connect within ${server.config.timeoutSeconds} s (its timeout); the task goes on without it while it keeps trying.`,
        );
      } else continue;
      told.add(server.name);
    }
  };
  return {
    hub,
    wiring: { ...mcpTaskWiring(hub, options), ready: waitForServers },
    dispose: async () => {
      watcher.dispose();
      await hub.dispose();
    },
  };
}

/** Asks on the terminal before a workspace's servers first start: y trusts, anything else does not; undefined when input ended. */
export function terminalTrustPrompt(
  lines: LineSource,
  err: NodeJS.WritableStream,
  style: Style,
): (servers: readonly string[], files: string) => Promise<boolean | undefined> {
  return async (servers, files) => {
    err.write(`\n${style.bold(`? This workspace's ${style.text(files)} wants to start these MCP servers:`)}\n`);
    for (const line of servers) err.write(`  ${style.text(line)}\n`);
    err.write(
      `${style.dim('They run as you, with your files and credentials. Trust them only for a repository you know; the answer is remembered until the file changes.')}\n`,
    );
    const answer = await lines.next('Start them? [y]es / [N]o: ');
    return answer === undefined ? undefined : /^(y|yes)$/i.test(answer.trim());
  };
}

/** The config with more servers, each replacing a configured server of its name. */
function withServers(config: McpConfig, extra: readonly McpServerConfig[] | undefined): McpConfig {
  if (!extra || extra.length === 0) return config;
  const servers = new Map(config.servers);
  const invalid = new Map(config.invalid);
  for (const server of extra) {
    servers.set(server.name, server);
    invalid.delete(server.name);
  }
  return { ...config, servers, invalid };
}

function untrustedHint(untrusted: UntrustedWorkspaceServers): string {
  const what = describeWorkspaceServers(untrusted.servers)
    .map((line) => `\n  ${line}`)
    .join('');
  return `The MCP servers of ${untrusted.file} were not started:${what}\nRun smith with --trust-workspace to start them${untrusted.decision === 'unknown' ? ' (on a terminal smith asks once and remembers the answer)' : ''}; the task goes on without them.`;
}
