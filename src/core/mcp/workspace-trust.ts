import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { McpConfigFile, McpConfigProblem, McpServerConfig } from './mcp-config-types.js';

/** Whether a workspace's MCP servers may start: an answer given earlier, or none yet. */
type WorkspaceTrustDecision = 'trusted' | 'denied' | 'unknown';

/** Looks up the answer for a workspace folder and the fingerprint of its servers' launch settings. */
export type WorkspaceTrustCheck = (workspace: string, fingerprint: string) => WorkspaceTrustDecision;

/** A workspace's servers that were held back because the workspace is not trusted (yet). */
export interface UntrustedWorkspaceServers {
  /** The workspace folder the files belong to. */
  readonly workspace: string;
  /** The file, or the files joined with " and ", that define them. */
  readonly file: string;
  readonly fingerprint: string;
  readonly decision: 'denied' | 'unknown';
  readonly servers: readonly McpServerConfig[];
}

/** The user's answers, one per workspace folder, in Smith's storage folder (shared by the CLI and the extension). */
export const WORKSPACE_TRUST_FILE = 'workspace-trust.json';

interface StoredAnswer {
  readonly fingerprint: string;
  readonly trusted: boolean;
  readonly decidedAt: string;
}

/**
 * Remembers whether the user trusts a workspace's `.smith/mcp.json`. An answer holds for the exact
 * launch settings it was given for (see workspaceServersFingerprint): a changed command, argument,
 * environment, URL or header, or a new server, asks again.
 */
export class WorkspaceTrust {
  private readonly file: string;

  constructor(
    private readonly options: { readonly storageDir: string /** --trust-workspace: trust every workspace file for this run. */; readonly trustAll?: boolean },
  ) {
    this.file = join(options.storageDir, WORKSPACE_TRUST_FILE);
  }

  /** The answer for these settings of this workspace; read from disk each time, so another window's answer counts. */
  readonly check: WorkspaceTrustCheck = (workspace, fingerprint) => {
    if (this.options.trustAll) return 'trusted';
    const answer = this.read()[workspace];
    if (!answer || answer.fingerprint !== fingerprint) return 'unknown';
    return answer.trusted ? 'trusted' : 'denied';
  };

  /** Stores the user's answer for these settings (replacing any earlier answer for the folder). */
  remember(workspace: string, fingerprint: string, trusted: boolean): void {
    const all = { ...this.read(), [workspace]: { fingerprint, trusted, decidedAt: new Date().toISOString() } };
    mkdirSync(dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ version: 1, workspaces: all }, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, this.file);
  }

  private read(): Record<string, StoredAnswer> {
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as { workspaces?: unknown };
      return typeof data.workspaces === 'object' && data.workspaces !== null ? (data.workspaces as Record<string, StoredAnswer>) : {};
    } catch {
      // Missing or damaged: nothing is trusted, so the user is asked again.
      return {};
    }
  }
}

/**
 * A hash of what a workspace file would start: each server's name and transport (command, args,
 * env, cwd, URL, headers). Toggling `disabled`, timeouts and descriptions keep the fingerprint.
 */
function workspaceServersFingerprint(servers: readonly McpServerConfig[]): string {
  const launch = [...servers].sort((a, b) => a.name.localeCompare(b.name)).map((s) => [s.name, canonical(s.transport)]);
  return createHash('sha256').update(JSON.stringify(launch)).digest('hex');
}

/** What merging did to a workspace file: entries it keeps, and warnings about what it dropped. */
interface WorkspaceFilePolicy {
  readonly entries: ReadonlyMap<string, McpServerConfig | McpConfigProblem>;
  readonly problems: readonly McpConfigProblem[];
  readonly untrusted?: UntrustedWorkspaceServers;
}

/**
 * The rules for a repository's own MCP files (`.mcp.json` and `.smith/mcp.json`, one set: a later
 * file's entry replaces an earlier one's): their servers start only when the workspace is trusted,
 * they cannot take the name of a user-level server (the user's wins), and they cannot auto-approve
 * tools. The answer covers the servers of both files together.
 */
export function applyWorkspacePolicy(
  files: readonly Extract<McpConfigFile, { ok: true }>[],
  userLevel: ReadonlyMap<string, string>,
  check: WorkspaceTrustCheck,
): WorkspaceFilePolicy {
  const problems: McpConfigProblem[] = [];
  const entries = new Map<string, McpServerConfig | McpConfigProblem>();
  for (const file of files) {
    const path = file.source.path;
    for (const [name, entry] of file.entries) {
      const owner = userLevel.get(name);
      if (owner !== undefined) {
        problems.push({ file: path, server: name, message: `ignored: a user-level server of the same name (in ${owner}) is used instead; rename one of them` });
        continue;
      }
      entries.delete(name);
      if ('message' in entry || entry.autoApprove.length === 0) entries.set(name, entry);
      else {
        problems.push({
          file: path,
          server: name,
          message: 'field "autoApprove": ignored: a workspace file cannot auto-approve tools; set auto-approval in the global settings',
        });
        entries.set(name, { ...entry, autoApprove: [] });
      }
    }
  }
  const servers = [...entries.values()].filter((e): e is McpServerConfig => !('message' in e));
  if (servers.length === 0 || files.length === 0) return { entries, problems };
  const workspace = files[0]!.source.baseDir;
  const fingerprint = workspaceServersFingerprint(servers);
  const decision = check(workspace, fingerprint);
  if (decision === 'trusted') return { entries, problems };
  const names = servers.map((s) => s.name).join(', ');
  const holding = [...new Set(servers.map((s) => s.source))];
  const path = holding.join(' and ');
  const settings = holding.length === 1 ? "this workspace's MCP settings" : "this workspace's MCP settings files";
  problems.push({
    file: path,
    message:
      decision === 'denied'
        ? `its MCP servers (${names}) were not started: you chose not to trust ${settings}`
        : `its MCP servers (${names}) were not started: ${settings} are not trusted yet`,
  });
  return { entries: new Map(), problems, untrusted: { workspace, file: path, fingerprint, decision, servers } };
}

/** The workspace's files that hold servers, relative to the workspace (".smith/mcp.json and .mcp.json"). */
export function workspaceFileNames(untrusted: UntrustedWorkspaceServers): string {
  return untrusted.file
    .split(' and ')
    .map((file) => relative(untrusted.workspace, file) || file)
    .join(' and ');
}

/** One line per held-back server: what would run. */
export function describeWorkspaceServers(servers: readonly McpServerConfig[]): string[] {
  return servers.map((s) => {
    const t = s.transport;
    return t.type === 'stdio' ? `${s.name}: ${[t.command, ...t.args].join(' ')}${t.cwd ? ` (in ${t.cwd})` : ''}` : `${s.name}: ${t.url}`;
  });
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
