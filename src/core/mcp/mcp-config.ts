import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { ContainedFiles, type LoaderCaps } from '../workspace/contained-files.js';
// The ESM build: the package's default UMD build requires its parts through a wrapper esbuild cannot follow,
// so the bundled CLI would fail with "Cannot find module './impl/format'".
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import * as z from '../../shared/zod-config.js';
import type { McpConfigFile, McpConfigProblem, McpConfigSource, McpServerConfig, McpTransportConfig } from './mcp-config-types.js';
import { expandEntryVariables } from './mcp-variable-expansion.js';
import { applyWorkspacePolicy, type UntrustedWorkspaceServers, type WorkspaceTrustCheck } from './workspace-trust.js';

export type { McpConfigFile, McpConfigProblem, McpConfigSource, McpServerConfig, McpTransportConfig } from './mcp-config-types.js';

/** The merged configuration the hub runs. */
export interface McpConfig {
  readonly servers: ReadonlyMap<string, McpServerConfig>;
  /** Entries that could not be used, by server name; the hub shows them with status error. */
  readonly invalid: ReadonlyMap<string, McpConfigProblem>;
  /** Every problem, file-level ones included, for warnings. */
  readonly problems: readonly McpConfigProblem[];
  /** The workspace file's servers, held back until the user trusts the workspace. */
  readonly untrusted?: UntrustedWorkspaceServers;
}

/** The global settings file's name inside Smith's storage folder (Cline's format). */
export const GLOBAL_MCP_SETTINGS_FILE = 'mcp_settings.json';
/** The workspace file, relative to the workspace root. */
export const WORKSPACE_MCP_FILE = join('.smith', 'mcp.json');
/** Claude Code's workspace file (project scope), relative to the workspace root. */
export const CLAUDE_WORKSPACE_MCP_FILE = '.mcp.json';
/** Seconds a call may take when the entry says nothing. */
export const DEFAULT_MCP_TIMEOUT_SECONDS = 60;

const envValue = z.pipe(z.union([z.string(), z.number(), z.boolean()]), z.transform(String));
const stringMap = z.record(z.string(), envValue);

// Unknown keys are ignored on purpose: files written for Claude Desktop, Cline or Roo Code carry extras.
const entrySchema = z.object({
  type: z.optional(z.enum(['stdio', 'streamableHttp', 'sse', 'http'])),
  transportType: z.optional(z.enum(['stdio', 'streamableHttp', 'sse', 'http'])),
  command: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
  args: z.optional(z.array(z.string())),
  env: z.optional(stringMap),
  cwd: z.optional(z.string().check(z.minLength(1))),
  url: z.optional(z.url({ message: 'must be a URL such as http://localhost:3000/mcp' })),
  headers: z.optional(stringMap),
  oauth: z.optional(
    z.object({
      clientId: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
      clientSecret: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
      callbackPort: z.optional(
        z.number().check(z.int('must be a whole number'), z.gte(1, 'must be a port (1-65535)'), z.lte(65535, 'must be a port (1-65535)')),
      ),
      scope: z.optional(z.string()),
    }),
  ),
  disabled: z.optional(z.boolean()),
  autoApprove: z.optional(z.array(z.string())),
  // Roo Code's name for the same list.
  alwaysAllow: z.optional(z.array(z.string())),
  timeout: z.optional(z.number().check(z.gte(1, 'must be at least 1 (seconds)'), z.lte(3600, 'must be at most 3600 (seconds)'))),
  description: z.optional(z.string()),
});

/** Where Claude Code keeps its user settings: `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`. */
export function claudeUserConfigPath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const dir = env.CLAUDE_CONFIG_DIR?.trim();
  return join(dir ? resolve(dir) : homedir(), '.claude.json');
}

/**
 * The config files in precedence order (later ones override same-name servers): Claude Code's user
 * file, Smith's global file, the workspace's `.mcp.json` then `.smith/mcp.json`, then --mcp-config.
 * `claudeUserFile: null` leaves Claude Code's user file out.
 */
export function mcpConfigSources(options: { storageDir: string; cwd: string; extraFile?: string; claudeUserFile?: string | null }): McpConfigSource[] {
  const claudeUserFile = options.claudeUserFile === undefined ? claudeUserConfigPath() : options.claudeUserFile;
  const sources: McpConfigSource[] = [
    ...(claudeUserFile === null ? [] : [{ path: claudeUserFile, scope: 'claude-user' as const, baseDir: dirname(claudeUserFile), project: options.cwd }]),
    { path: join(options.storageDir, GLOBAL_MCP_SETTINGS_FILE), scope: 'global', baseDir: options.storageDir },
    { path: join(options.cwd, CLAUDE_WORKSPACE_MCP_FILE), scope: 'workspace', baseDir: options.cwd },
    { path: join(options.cwd, WORKSPACE_MCP_FILE), scope: 'workspace', baseDir: options.cwd },
  ];
  if (options.extraFile) {
    const path = resolve(options.cwd, options.extraFile);
    sources.push({ path, scope: 'extra', baseDir: dirname(path) });
  }
  return sources;
}

/** What is read of one MCP config file at most: 1 MiB (a larger file is not used). */
const MCP_CONFIG_CAPS: LoaderCaps = { fileBytes: 1024 * 1024, totalBytes: 1024 * 1024, entries: 0 };
/** Claude Code's user file also holds its per-project state, so it may be larger: 16 MiB. */
const CLAUDE_USER_CONFIG_CAPS: LoaderCaps = { fileBytes: 16 * 1024 * 1024, totalBytes: 16 * 1024 * 1024, entries: 0 };

/** A config file's text, or why it was not read; the workspace's file only where its real path lies inside the workspace. */
export function readMcpConfigText(source: McpConfigSource): { text?: string; problem?: string } {
  const files = new ContainedFiles(
    source.scope === 'workspace'
      ? { within: [source.baseDir], caps: MCP_CONFIG_CAPS }
      : { within: [], trusted: [source.path], caps: source.scope === 'claude-user' ? CLAUDE_USER_CONFIG_CAPS : MCP_CONFIG_CAPS },
  );
  const text = files.readText(source.path, 'skip');
  const problem = files.skipped.map((entry) => (entry.path === source.path ? entry.reason : `${entry.path} ${entry.reason}`)).join('; ');
  return { ...(text === undefined ? {} : { text }), ...(problem ? { problem } : {}) };
}

/** Reads one file; a missing file is fine and defines no servers. */
export function readMcpConfigFile(source: McpConfigSource): McpConfigFile {
  return readMcpConfigFileWith(source, process.env);
}

/** The same, with `${NAME}` references expanded from `env` (process.env plus secrets from the editor's secret storage). */
export function readMcpConfigFileWith(source: McpConfigSource, env: Readonly<Record<string, string | undefined>>): McpConfigFile {
  const { text, problem } = readMcpConfigText(source);
  if (text === undefined && problem === undefined) return { source, ok: true, missing: true, entries: new Map() };
  if (text === undefined) return { source, ok: false, problem: { file: source.path, message: `cannot be read: ${problem}` } };
  return parseMcpConfigText(text, source, env);
}

/**
 * Parses a config file's text (comments and trailing commas allowed); each entry is validated on its
 * own, after `${VAR}` / `${VAR:-default}` in its launch fields are expanded from `env`.
 */
export function parseMcpConfigText(text: string, source: McpConfigSource, env: Readonly<Record<string, string | undefined>> = process.env): McpConfigFile {
  const file = source.path;
  const errors: ParseError[] = [];
  const data: unknown = text.trim() === '' ? {} : parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const { line, column } = lineAndColumn(text, first.offset);
    return { source, ok: false, problem: { file, message: `is not valid JSON: ${printParseErrorCode(first.error)} at line ${line}, column ${column}` } };
  }
  if (!isPlainObject(data)) return { source, ok: false, problem: { file, message: 'must contain a JSON object like {"mcpServers": {...}}' } };
  const sections: [string, unknown][] = [['mcpServers', data.mcpServers]];
  if (source.scope === 'claude-user' && source.project !== undefined) {
    const key = claudeProjectKey(data.projects, source.project);
    if (key !== undefined) sections.push([`projects["${key}"].mcpServers`, (data.projects as Record<string, Record<string, unknown>>)[key]!.mcpServers]);
  }
  const entries = new Map<string, McpServerConfig | McpConfigProblem>();
  for (const [field, servers] of sections) {
    if (servers === undefined) continue;
    if (!isPlainObject(servers))
      return { source, ok: false, problem: { file, message: `field "${field}" must be an object mapping server names to their settings` } };
    // A project's entry replaces the user-wide one of the same name, as in Claude Code.
    for (const [name, raw] of Object.entries(servers)) entries.set(name, parseEntry(name, raw, source, env));
  }
  return { source, ok: true, missing: false, entries };
}

/** The key of `projects` in Claude Code's user file that names this folder (as written, or its real path). */
export function claudeProjectKey(projects: unknown, folder: string): string | undefined {
  if (!isPlainObject(projects)) return undefined;
  let real: string | undefined;
  try {
    real = realpathSync(folder);
  } catch {
    real = undefined;
  }
  for (const candidate of [folder, real, folder.replaceAll('\\', '/')]) {
    if (candidate !== undefined && Object.hasOwn(projects, candidate) && isPlainObject(projects[candidate])) return candidate;
  }
  return undefined;
}

/** How merging treats the workspace's own file. */
interface McpMergeOptions {
  /** Whether the workspace file's servers may start (default: nothing is trusted). */
  readonly workspaceTrust?: WorkspaceTrustCheck;
}

/**
 * Merges files in precedence order: a later file's entry replaces an earlier one of the same name.
 * The workspace's files (`.mcp.json`, then `.smith/mcp.json`, which wins a clash) are one set held
 * to their own rules (applyWorkspacePolicy): trust, no user-level names, no auto-approval. They
 * take the place of the first of them in the order.
 */
export function mergeMcpConfigFiles(files: readonly McpConfigFile[], options: McpMergeOptions = {}): McpConfig {
  const chosen = new Map<string, McpServerConfig | McpConfigProblem>();
  const problems: McpConfigProblem[] = [];
  const userLevel = new Map<string, string>();
  for (const file of files) if (file.ok && file.source.scope !== 'workspace') for (const name of file.entries.keys()) userLevel.set(name, file.source.path);
  const workspaceFiles = files.filter((file): file is Extract<McpConfigFile, { ok: true }> => file.ok && file.source.scope === 'workspace');
  let untrusted: UntrustedWorkspaceServers | undefined;
  let workspaceDone = false;
  for (const file of files) {
    if (!file.ok) {
      problems.push(file.problem);
      continue;
    }
    let entries = file.entries;
    if (file.source.scope === 'workspace') {
      if (workspaceDone) continue;
      workspaceDone = true;
      const policy = applyWorkspacePolicy(workspaceFiles, userLevel, options.workspaceTrust ?? (() => 'unknown'));
      entries = policy.entries;
      problems.push(...policy.problems);
      untrusted = policy.untrusted;
    }
    for (const [name, entry] of entries) {
      chosen.set(name, entry);
      if (isProblem(entry)) problems.push(entry);
    }
  }
  const servers = new Map<string, McpServerConfig>();
  const invalid = new Map<string, McpConfigProblem>();
  for (const [name, entry] of chosen) {
    if (isProblem(entry)) invalid.set(name, entry);
    else servers.set(name, entry);
  }
  return { servers, invalid, problems, ...(untrusted ? { untrusted } : {}) };
}

/** Formats a problem as one line naming the file, server and field. */
export function describeMcpConfigProblem(problem: McpConfigProblem): string {
  return `MCP config ${problem.file}: ${problem.server !== undefined ? `server "${problem.server}": ` : ''}${problem.message}`;
}

/** True for an entry that failed validation. */
function isProblem(entry: McpServerConfig | McpConfigProblem): entry is McpConfigProblem {
  return 'message' in entry;
}

function parseEntry(
  name: string,
  raw: unknown,
  source: McpConfigSource,
  env: Readonly<Record<string, string | undefined>>,
): McpServerConfig | McpConfigProblem {
  const problem = (message: string): McpConfigProblem => ({ file: source.path, server: name, message });
  if (!isPlainObject(raw)) return problem('must be an object with "command" (a local server) or "url" (a remote server)');
  const expanded = expandEntryVariables(raw, env);
  if (expanded.missing.length > 0) {
    const names = expanded.missing.map((variable) => `\${${variable}}`).join(', ');
    return problem(
      `uses ${names}, but ${expanded.missing.length === 1 ? 'that variable is' : 'those variables are'} not set; set ${expanded.missing.length === 1 ? 'it' : 'them'}, or give a default: \${NAME:-default}`,
    );
  }
  const parsed = entrySchema.safeParse(expanded.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
    return problem(`field "${field}": ${issue.message}`);
  }
  const entry = parsed.data;
  const declared = entry.type ?? entry.transportType;
  const kind = declared === 'http' ? 'streamableHttp' : (declared ?? (entry.command ? 'stdio' : entry.url ? 'streamableHttp' : undefined));
  if (!kind) return problem('needs "command" (a local server started on stdio) or "url" (a remote server)');
  let transport: McpTransportConfig;
  if (kind === 'stdio') {
    if (!entry.command) return problem('field "command": required for a stdio server');
    if (entry.url) return problem('has both "command" and "url"; keep one (command for a local server, url for a remote one)');
    if (entry.oauth) return problem('field "oauth": only a remote server (one with "url") signs in with OAuth');
    const cwd = entry.cwd === undefined ? undefined : isAbsolute(entry.cwd) ? entry.cwd : resolve(source.baseDir, entry.cwd);
    transport = { type: 'stdio', command: entry.command, args: entry.args ?? [], env: entry.env ?? {}, ...(cwd ? { cwd } : {}) };
  } else {
    if (!entry.url) return problem(`field "url": required for a ${kind} server`);
    if (entry.command) return problem('has both "command" and "url"; keep one (command for a local server, url for a remote one)');
    if (entry.oauth?.clientSecret && !entry.oauth.clientId) return problem('field "oauth.clientSecret": needs "clientId" too');
    transport = { type: kind, url: entry.url, headers: entry.headers ?? {}, ...(entry.oauth ? { oauth: entry.oauth } : {}) };
  }
  return {
    name,
    source: source.path,
    transport,
    disabled: entry.disabled ?? false,
    autoApprove: entry.autoApprove ?? entry.alwaysAllow ?? [],
    timeoutSeconds: entry.timeout ?? DEFAULT_MCP_TIMEOUT_SECONDS,
    ...(entry.description ? { description: entry.description } : {}),
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
