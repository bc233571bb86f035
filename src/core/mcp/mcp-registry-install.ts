// A registry server (server.json) turned into a config entry Smith can start: a package run by its
// runtime (npm → npx, pypi → uvx, oci → docker) over stdio, or a remote URL. Secrets never go into
// the file: an input marked isSecret is written as a `${NAME}` reference, filled in when the config
// is read (see mcp-variable-expansion.ts).
import type { RegistryArgument, RegistryInput, RegistryPackage, RegistryRemote, RegistryServer } from './mcp-registry.js';

/** An environment variable or header the entry needs from the user. */
export interface RegistryInstallInput {
  readonly name: string;
  readonly kind: 'env' | 'header';
  readonly required: boolean;
  readonly secret: boolean;
  readonly description?: string;
  /** The value the registry gives when the user gives none. */
  readonly default?: string;
}

/** What installing a registry server writes, and what it needs. */
export interface RegistryInstallPlan {
  /** The entry's key in `mcpServers`: the last part of the registry name. */
  readonly name: string;
  readonly entry: Record<string, unknown>;
  /** How it runs, in words: "npm @scope/pkg@1.2.3 (stdio)" or "streamable-http https://…". */
  readonly how: string;
  readonly inputs: readonly RegistryInstallInput[];
}

/** The runtimes Smith knows how to start a package with. */
const RUNTIMES: Readonly<Record<string, string>> = { npm: 'npx', pypi: 'uvx', oci: 'docker' };

/** Why a server cannot be installed, said to the user. */
export class RegistryInstallError extends Error {}

/**
 * Plans the entry for a server: its first package Smith can run over stdio, else its first remote
 * (with `prefer: 'remote'`, the other way round). `values` are the user's values for its inputs:
 * a secret's value is never written (the entry refers to `${NAME}`), any other one is written as given.
 */
export function planRegistryInstall(
  server: RegistryServer,
  options: { readonly prefer?: 'package' | 'remote'; readonly values?: Readonly<Record<string, string>> } = {},
): RegistryInstallPlan {
  const values = options.values ?? {};
  const pkg = (server.packages ?? []).find((p) => p.transport.type === 'stdio' && RUNTIMES[p.registryType] !== undefined);
  const remote = (server.remotes ?? [])[0];
  const name = entryName(server.name);
  const preferRemote = options.prefer === 'remote';
  if (pkg && !(preferRemote && remote)) return { name, ...packageEntry(pkg, values) };
  if (remote) return { name, ...remoteEntry(remote, values) };
  const kinds = [...new Set((server.packages ?? []).map((p) => `${p.registryType} (${p.transport.type})`))];
  throw new RegistryInstallError(
    `${server.name} offers nothing Smith can start: ${kinds.length > 0 ? `its packages are ${kinds.join(', ')}` : 'no package and no remote URL'}. Smith runs npm, pypi and oci packages over stdio, and remote servers. ${server.repository?.url ? `See ${server.repository.url}.` : ''}`.trim(),
  );
}

/** The inputs a plan still lacks: required ones with neither a value nor a default (secrets are read from the environment when Smith starts). */
export function missingInputs(plan: RegistryInstallPlan, values: Readonly<Record<string, string>>): RegistryInstallInput[] {
  return plan.inputs.filter((i) => i.required && !i.secret && values[i.name] === undefined && i.default === undefined);
}

function packageEntry(pkg: RegistryPackage, values: Readonly<Record<string, string>>): Omit<RegistryInstallPlan, 'name'> {
  const inputs = (pkg.environmentVariables ?? []).map((v) => installInput(v, 'env'));
  const env: Record<string, string> = {};
  for (const variable of pkg.environmentVariables ?? []) {
    const value = inputValue(variable, values);
    if (value !== undefined) env[variable.name] = value;
  }
  const packageArgs = argumentList(pkg.packageArguments ?? [], values);
  const runtimeArgs = argumentList(pkg.runtimeArguments ?? [], values);
  const version = pkg.version && pkg.version !== 'latest' ? pkg.version : undefined;
  let command: string;
  let args: string[];
  switch (pkg.registryType) {
    case 'npm':
      command = 'npx';
      args = [...(runtimeArgs.length > 0 ? runtimeArgs : ['-y']), version ? `${pkg.identifier}@${version}` : pkg.identifier, ...packageArgs];
      break;
    case 'pypi':
      command = 'uvx';
      args = [...runtimeArgs, version ? `${pkg.identifier}==${version}` : pkg.identifier, ...packageArgs];
      break;
    default: {
      command = 'docker';
      // The container sees only the variables named with -e; their values come from the entry's env.
      const image = version && !/[:@]/.test(pkg.identifier.split('/').at(-1) ?? '') ? `${pkg.identifier}:${version}` : pkg.identifier;
      const passed = Object.keys(env).flatMap((key) => ['-e', key]);
      args = ['run', '-i', '--rm', ...runtimeArgs.filter((a) => a !== 'run' && a !== '-i' && a !== '--rm'), ...passed, image, ...packageArgs];
    }
  }
  const entry: Record<string, unknown> = { command, args, ...(Object.keys(env).length > 0 ? { env } : {}) };
  return { entry, how: `${pkg.registryType} ${pkg.identifier}${version ? `@${version}` : ''} (stdio)`, inputs };
}

function remoteEntry(remote: RegistryRemote, values: Readonly<Record<string, string>>): Omit<RegistryInstallPlan, 'name'> {
  const inputs = (remote.headers ?? []).map((h) => installInput(h, 'header'));
  const headers: Record<string, string> = {};
  for (const header of remote.headers ?? []) {
    const value = inputValue(header, values);
    if (value !== undefined) headers[header.name] = value;
  }
  const entry: Record<string, unknown> = {
    type: remote.type === 'sse' ? 'sse' : 'streamableHttp',
    url: remote.url,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
  return { entry, how: `${remote.type} ${remote.url}`, inputs };
}

function installInput(input: RegistryInput, kind: 'env' | 'header'): RegistryInstallInput {
  return {
    name: input.name,
    kind,
    required: input.isRequired === true,
    secret: input.isSecret === true,
    ...(input.description ? { description: input.description } : {}),
    ...(input.default !== undefined ? { default: input.default } : {}),
  };
}

/** A secret becomes a reference to a variable of its name; a fixed `value` or the user's value is written; else the default. */
function inputValue(input: RegistryInput, values: Readonly<Record<string, string>>): string | undefined {
  if (input.isSecret) return `\${${variableName(input.name)}}`;
  return values[input.name] ?? input.value ?? input.default;
}

function argumentList(list: readonly RegistryArgument[], values: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  for (const arg of list) {
    const key = arg.valueHint ?? arg.name ?? '';
    const value = values[key] ?? arg.value ?? arg.default;
    if (arg.type === 'named' && arg.name) {
      if (value !== undefined) out.push(`${arg.name}=${value}`);
      else if (arg.isRequired) out.push(arg.name);
    } else if (value !== undefined) out.push(value);
  }
  return out;
}

/** A header name like "Authorization" as a variable name: AUTHORIZATION. */
function variableName(name: string): string {
  const upper = name.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
  return /^[A-Z_]/.test(upper) ? upper : `_${upper}`;
}

/** "io.github.user/weather-server" → "weather-server"; the key stays a plain word. */
export function entryName(registryName: string): string {
  const last = registryName.split('/').at(-1) ?? registryName;
  const clean = last.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^-+|-+$/g, '');
  return clean.length > 0 ? clean.slice(0, 100) : 'server';
}
