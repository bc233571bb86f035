// `smith mcp search|add|remove|list`: the MCP Registry from the terminal, and the config files it
// writes. `smith mcp serve` is `smith mcp-serve`.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { GLOBAL_MCP_SETTINGS_FILE, mcpConfigSources, readMcpConfigFile, WORKSPACE_MCP_FILE } from '../core/mcp/mcp-config.js';
import { putServerEntry, removeServerEntry } from '../core/mcp/mcp-config-edits.js';
import { DEFAULT_MCP_REGISTRY_URL, RegistryError, searchRegistry, type RegistryServer } from '../core/mcp/mcp-registry.js';
import { missingInputs, planRegistryInstall, RegistryInstallError } from '../core/mcp/mcp-registry-install.js';
import { parseFlags, UsageError } from './usage-error.js';
import { defaultStorageDir } from './default-storage.js';
import { terminalSafeText } from './terminal-safe-text.js';

/** A mirror of the registry (a company's) instead of the official one. */
export const MCP_REGISTRY_URL_ENV = 'SMITH_MCP_REGISTRY_URL';

/** Pages `smith mcp add` reads looking for the exact name. */
const MAX_LOOKUP_PAGES = 10;

const HELP = `Usage: smith mcp search [TEXT] [--registry URL] [--cursor C] [--output json]
       smith mcp add NAME [--as KEY] [--scope user|workspace] [--env NAME=VALUE]… [--header NAME=VALUE]… [--remote] [--registry URL]
       smith mcp remove KEY [--scope user|workspace]
       smith mcp list
       smith mcp serve …   (the same as smith mcp-serve)

search   lists servers of the MCP Registry (${DEFAULT_MCP_REGISTRY_URL}, or --registry / $${MCP_REGISTRY_URL_ENV}
         for a mirror): name, description, how it runs, the environment and headers it needs, its source.
add      installs the registry server NAME (exactly as search shows it) into the user's MCP settings
         (<storage>/${GLOBAL_MCP_SETTINGS_FILE}) or, with --scope workspace, into ${WORKSPACE_MCP_FILE}, which starts only
         once you trust the workspace's servers. A secret (isSecret) is never written: the entry
         refers to \${NAME}, read from your environment when Smith starts.
remove   removes the entry KEY from that file.
list     the servers of the user's and the workspace's files.
Common: --cwd DIR (the workspace), --storage DIR.`;

interface Output {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** Runs `smith mcp …` (argv after "mcp"); the exit code. */
export async function runMcpCommand(argv: readonly string[], output: Output): Promise<number> {
  const { values, positionals } = parseFlags(
    argv,
    {
      registry: { type: 'string' },
      cursor: { type: 'string' },
      output: { type: 'string' },
      as: { type: 'string' },
      scope: { type: 'string' },
      env: { type: 'string', multiple: true },
      header: { type: 'string', multiple: true },
      remote: { type: 'boolean' },
      cwd: { type: 'string' },
      storage: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    { positionals: true },
  );
  const [action, ...rest] = positionals;
  if (values.help || action === undefined) {
    output.stdout.write(`${HELP}\n`);
    return values.help ? 0 : 2;
  }
  const registry = values.registry ?? output.env[MCP_REGISTRY_URL_ENV] ?? DEFAULT_MCP_REGISTRY_URL;
  const cwd = resolve(output.cwd, values.cwd ?? '.');
  const storageDir = values.storage ?? defaultStorageDir();
  const scope = values.scope ?? 'user';
  if (scope !== 'user' && scope !== 'workspace') throw new UsageError(`--scope must be user or workspace, not ${scope}`);
  const file = scope === 'user' ? join(storageDir, GLOBAL_MCP_SETTINGS_FILE) : join(cwd, WORKSPACE_MCP_FILE);
  try {
    switch (action) {
      case 'search':
        return await search(rest.join(' '), registry, values.cursor, values.output === 'json', output);
      case 'add':
        if (rest.length !== 1) throw new UsageError('smith mcp add takes one registry name (as smith mcp search shows it)');
        return await add(
          rest[0]!,
          { registry, file, scope, key: values.as, env: pairs(values.env, '--env'), headers: pairs(values.header, '--header'), remote: values.remote === true },
          output,
        );
      case 'remove':
        if (rest.length !== 1) throw new UsageError('smith mcp remove takes one server name');
        return remove(rest[0]!, file, output);
      case 'list':
        return list(cwd, storageDir, output);
      default:
        throw new UsageError(`unknown mcp command: ${action} (expected search, add, remove, list or serve)`);
    }
  } catch (error) {
    if (error instanceof RegistryError || error instanceof RegistryInstallError) {
      output.stderr.write(`smith: ${terminalSafeText(error.message)}\n`);
      return 1;
    }
    throw error;
  }
}

async function search(text: string, registry: string, cursor: string | undefined, json: boolean, output: Output): Promise<number> {
  const page = await searchRegistry({ baseUrl: registry, search: text, ...(cursor ? { cursor } : {}) });
  if (json) {
    output.stdout.write(`${JSON.stringify({ servers: page.servers, nextCursor: page.nextCursor ?? null, skipped: page.skipped })}\n`);
    return 0;
  }
  if (page.servers.length === 0) output.stdout.write(`No servers found${text ? ` for "${terminalSafeText(text)}"` : ''}.\n`);
  for (const server of page.servers) output.stdout.write(`${describeServer(server)}\n`);
  for (const skipped of page.skipped) output.stderr.write(`smith: left out ${terminalSafeText(skipped)}\n`);
  if (page.nextCursor) output.stderr.write(`More: smith mcp search ${text ? `${JSON.stringify(text)} ` : ''}--cursor ${terminalSafeText(page.nextCursor)}\n`);
  return 0;
}

/** A server as `search` prints it: name and version, description, how it runs, what it needs, where its source is. */
export function describeServer(server: RegistryServer): string {
  const safe = terminalSafeText;
  const lines = [
    `${safe(server.name)}${server.version ? ` ${safe(server.version)}` : ''}${server.status && server.status !== 'active' ? ` [${safe(server.status)}]` : ''}`,
  ];
  if (server.title || server.description) lines.push(`  ${safe([server.title, server.description].filter(Boolean).join(': '))}`);
  for (const pkg of server.packages ?? []) {
    lines.push(`  package: ${safe(pkg.registryType)} ${safe(pkg.identifier)}${pkg.version ? `@${safe(pkg.version)}` : ''} (${safe(pkg.transport.type)})`);
    for (const v of pkg.environmentVariables ?? []) lines.push(`    env ${safe(v.name)}${flags(v)}${v.description ? `: ${safe(v.description)}` : ''}`);
  }
  for (const remote of server.remotes ?? []) {
    lines.push(`  remote: ${safe(remote.type)} ${safe(remote.url)}`);
    for (const h of remote.headers ?? []) lines.push(`    header ${safe(h.name)}${flags(h)}${h.description ? `: ${safe(h.description)}` : ''}`);
  }
  const source = server.repository?.url ?? server.websiteUrl;
  if (source) lines.push(`  source: ${safe(source)}`);
  return lines.join('\n');
}

function flags(input: { readonly isRequired?: boolean; readonly isSecret?: boolean }): string {
  const marks = [input.isRequired ? 'required' : '', input.isSecret ? 'secret' : ''].filter(Boolean);
  return marks.length > 0 ? ` (${marks.join(', ')})` : '';
}

interface AddOptions {
  readonly registry: string;
  readonly file: string;
  readonly scope: 'user' | 'workspace';
  readonly key: string | undefined;
  readonly env: Record<string, string>;
  readonly headers: Record<string, string>;
  readonly remote: boolean;
}

async function add(name: string, options: AddOptions, output: Output): Promise<number> {
  const server = await findExact(name, options.registry);
  if (!server) {
    output.stderr.write(`smith: the registry at ${terminalSafeText(options.registry)} has no server named ${terminalSafeText(name)} (see smith mcp search)\n`);
    return 1;
  }
  const values = { ...options.env, ...options.headers };
  const plan = planRegistryInstall(server, { prefer: options.remote ? 'remote' : 'package', values });
  const given = new Set(plan.inputs.filter((i) => i.secret && values[i.name] !== undefined).map((i) => i.name));
  if (given.size > 0) {
    throw new UsageError(
      `${[...given].join(', ')} ${given.size === 1 ? 'is a secret' : 'are secrets'}: Smith does not write secrets into config files. Set ${given.size === 1 ? 'it' : 'them'} in your environment instead.`,
    );
  }
  const missing = missingInputs(plan, values);
  if (missing.length > 0) {
    throw new UsageError(
      `${server.name} needs ${missing.map((i) => `${i.kind === 'env' ? '--env' : '--header'} ${i.name}=…${i.description ? ` (${i.description})` : ''}`).join(', ')}`,
    );
  }
  const key = options.key ?? plan.name;
  const text = existsSync(options.file) ? readFileSync(options.file, 'utf8') : '';
  const next = putServerEntry(text, key, plan.entry);
  mkdirSync(dirname(options.file), { recursive: true });
  writeFileSync(options.file, next, 'utf8');
  output.stdout.write(`Added "${terminalSafeText(key)}" (${terminalSafeText(plan.how)}) to ${options.file}\n`);
  for (const input of plan.inputs.filter((i) => i.secret)) {
    const variable =
      /^\$\{([^}]+)\}$/.exec(String(((plan.entry.env ?? plan.entry.headers) as Record<string, string> | undefined)?.[input.name] ?? ''))?.[1] ?? input.name;
    const set = output.env[variable] !== undefined;
    output.stderr.write(
      `${set ? '' : 'Note: '}${input.kind === 'env' ? 'environment variable' : 'header'} ${input.name} is a secret, read from $${variable}${set ? ' (set now)' : ', which is not set: set it before Smith starts'}.\n`,
    );
  }
  if (options.scope === 'workspace')
    output.stderr.write("It starts once you trust this workspace's MCP servers (Smith asks on the next run on a terminal, or use --trust-workspace).\n");
  return 0;
}

/** Pages through the search for the server of exactly that name. */
async function findExact(name: string, registry: string): Promise<RegistryServer | undefined> {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LOOKUP_PAGES; page++) {
    const result = await searchRegistry({ baseUrl: registry, search: name, ...(cursor ? { cursor } : {}) });
    const found = result.servers.find((s) => s.name === name);
    if (found) return found;
    if (!result.nextCursor) return undefined;
    cursor = result.nextCursor;
  }
  return undefined;
}

function remove(key: string, file: string, output: Output): number {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const next = text === '' ? undefined : removeServerEntry(text, key);
  if (next === undefined) {
    output.stderr.write(`smith: ${file} has no server "${terminalSafeText(key)}"\n`);
    return 1;
  }
  writeFileSync(file, next, 'utf8');
  output.stdout.write(`Removed "${terminalSafeText(key)}" from ${file}\n`);
  return 0;
}

function list(cwd: string, storageDir: string, output: Output): number {
  let any = false;
  for (const source of mcpConfigSources({ storageDir, cwd, claudeUserFile: null })) {
    const read = readMcpConfigFile(source);
    if (!read.ok) {
      output.stderr.write(`smith: ${terminalSafeText(read.problem.message)}\n`);
      continue;
    }
    for (const [name, entry] of read.entries) {
      any = true;
      if ('message' in entry) {
        output.stdout.write(`${terminalSafeText(name)}  invalid: ${terminalSafeText(entry.message)}  ${source.path}\n`);
        continue;
      }
      const t = entry.transport;
      const how = t.type === 'stdio' ? [t.command, ...t.args].join(' ') : `${t.type} ${t.url}`;
      output.stdout.write(`${terminalSafeText(name)}  ${terminalSafeText(how)}${entry.disabled ? '  (disabled)' : ''}  ${source.path}\n`);
    }
  }
  if (!any) output.stdout.write('No MCP servers configured.\n');
  return 0;
}

function pairs(list: readonly string[] | undefined, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list ?? []) {
    const at = item.indexOf('=');
    if (at <= 0) throw new UsageError(`${flag} takes NAME=VALUE, not ${item}`);
    out[item.slice(0, at)] = item.slice(at + 1);
  }
  return out;
}
