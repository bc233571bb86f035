// A client of the MCP Registry API (v0: `GET /v0/servers?search=…&cursor=…`), the official one at
// registry.modelcontextprotocol.io or a company's mirror. It reads the response as the registry's
// OpenAPI describes it ({servers: [{server: server.json, _meta}], metadata: {nextCursor}}), keeps
// what Smith can show and install, and names what it left out.
import * as z from '../../shared/zod-config.js';

/** The official registry; a setting or flag can name a mirror instead. */
export const DEFAULT_MCP_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** Most bytes of one response read; a larger one is refused, not parsed. */
export const MAX_REGISTRY_RESPONSE_BYTES = 4 * 1024 * 1024;
/** How long one page may take. */
const FETCH_TIMEOUT_MS = 20_000;
/** Servers asked for per page. */
const PAGE_SIZE = 30;

const input = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  description: z.optional(z.string().check(z.maxLength(2000))),
  isRequired: z.optional(z.boolean()),
  isSecret: z.optional(z.boolean()),
  default: z.optional(z.string().check(z.maxLength(10_000))),
  value: z.optional(z.string().check(z.maxLength(10_000))),
  placeholder: z.optional(z.string().check(z.maxLength(1000))),
  choices: z.optional(z.array(z.string().check(z.maxLength(1000))).check(z.maxLength(200))),
});
/** An environment variable or header a server needs, as the registry describes it. */
export type RegistryInput = z.infer<typeof input>;

const argument = z.object({
  type: z.enum(['positional', 'named']),
  name: z.optional(z.string().check(z.maxLength(200))),
  value: z.optional(z.string().check(z.maxLength(10_000))),
  default: z.optional(z.string().check(z.maxLength(10_000))),
  valueHint: z.optional(z.string().check(z.maxLength(200))),
  isRequired: z.optional(z.boolean()),
  description: z.optional(z.string().check(z.maxLength(2000))),
});
export type RegistryArgument = z.infer<typeof argument>;

const remoteTransport = z.object({
  type: z.enum(['streamable-http', 'sse']),
  url: z.string().check(z.minLength(1), z.maxLength(2000)),
  headers: z.optional(z.array(input).check(z.maxLength(100))),
});

const registryPackage = z.object({
  registryType: z.string().check(z.minLength(1), z.maxLength(50)),
  identifier: z.string().check(z.minLength(1), z.maxLength(500)),
  version: z.optional(z.string().check(z.maxLength(200))),
  runtimeHint: z.optional(z.string().check(z.maxLength(50))),
  transport: z.union([z.object({ type: z.literal('stdio') }), remoteTransport]),
  runtimeArguments: z.optional(z.array(argument).check(z.maxLength(100))),
  packageArguments: z.optional(z.array(argument).check(z.maxLength(100))),
  environmentVariables: z.optional(z.array(input).check(z.maxLength(100))),
});
export type RegistryPackage = z.infer<typeof registryPackage>;
export type RegistryRemote = z.infer<typeof remoteTransport>;

const serverDetail = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  description: z.optional(z.string().check(z.maxLength(2000))),
  title: z.optional(z.string().check(z.maxLength(200))),
  version: z.optional(z.string().check(z.maxLength(255))),
  websiteUrl: z.optional(z.string().check(z.maxLength(2000))),
  repository: z.optional(
    z.object({
      url: z.optional(z.string().check(z.maxLength(2000))),
      source: z.optional(z.string().check(z.maxLength(100))),
      subfolder: z.optional(z.string().check(z.maxLength(500))),
    }),
  ),
  packages: z.optional(z.array(registryPackage).check(z.maxLength(50))),
  remotes: z.optional(z.array(remoteTransport).check(z.maxLength(50))),
});

/** One server of the registry, as Smith shows and installs it. */
export type RegistryServer = z.infer<typeof serverDetail> & {
  /** The registry's status of this version ("active", "deprecated"…), when it says. */
  readonly status?: string;
};

/** One page of a search. */
export interface RegistryPage {
  readonly servers: readonly RegistryServer[];
  /** Pass it back as `cursor` for the next page; absent on the last one. */
  readonly nextCursor?: string;
  /** Entries of the page that did not have the documented shape, by name (or position), with why. */
  readonly skipped: readonly string[];
}

/** A registry that could not be read: unreachable, an HTTP error, or a body that is not a registry answer. */
export class RegistryError extends Error {}

/** What a search needs. */
interface RegistryQuery {
  /** The registry's base URL (the official one, or a mirror); `/v0/servers` is added. */
  readonly baseUrl: string;
  readonly search?: string;
  readonly cursor?: string;
  readonly signal?: AbortSignal;
}

/** Fetches one page of servers matching `search` (latest versions only). */
export async function searchRegistry(query: RegistryQuery): Promise<RegistryPage> {
  const url = registryUrl(query);
  const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const signal = query.signal ? AbortSignal.any([query.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, { signal, headers: { accept: 'application/json' }, redirect: 'follow' });
  } catch (error) {
    throw new RegistryError(
      `Could not reach the MCP registry at ${query.baseUrl}: ${timeout.aborted ? `no answer in ${FETCH_TIMEOUT_MS / 1000} s` : (error as Error).message}`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new RegistryError(`The MCP registry at ${query.baseUrl} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`);
  }
  const text = await readLimited(response, query.baseUrl);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RegistryError(`The MCP registry at ${query.baseUrl} sent a body that is not JSON; is ${query.baseUrl} a registry (API v0)?`);
  }
  return readPage(body, query.baseUrl);
}

/** The page's URL: `<base>/v0/servers` with the search, the cursor, a page size and latest versions only. */
export function registryUrl(query: Pick<RegistryQuery, 'baseUrl' | 'search' | 'cursor'>): URL {
  let base: URL;
  try {
    base = new URL(query.baseUrl);
  } catch {
    throw new RegistryError(`The MCP registry URL is not a URL: ${query.baseUrl}`);
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new RegistryError(`The MCP registry URL must be http(s): ${query.baseUrl}`);
  const url = new URL(`${base.pathname.replace(/\/+$/, '')}/v0/servers`, base);
  if (query.search?.trim()) url.searchParams.set('search', query.search.trim());
  if (query.cursor) url.searchParams.set('cursor', query.cursor);
  url.searchParams.set('limit', String(PAGE_SIZE));
  url.searchParams.set('version', 'latest');
  return url;
}

/** Reads a registry answer; entries that do not fit are skipped and named, a body that is no list at all is an error. */
export function readPage(body: unknown, where: string): RegistryPage {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { servers?: unknown }).servers)) {
    throw new RegistryError(`The MCP registry at ${where} sent JSON without a "servers" list; is it a registry (API v0)?`);
  }
  const entries = (body as { servers: unknown[] }).servers;
  const servers: RegistryServer[] = [];
  const skipped: string[] = [];
  entries.forEach((entry, index) => {
    // API v0 wraps each server.json as {server, _meta}; older mirrors list server.json itself.
    const wrapped = typeof entry === 'object' && entry !== null && 'server' in entry ? (entry as { server: unknown; _meta?: unknown }) : undefined;
    const detail = serverDetail.safeParse(wrapped ? wrapped.server : entry);
    if (!detail.success) {
      const name = (wrapped?.server as { name?: unknown } | undefined)?.name ?? (entry as { name?: unknown } | null)?.name;
      const issue = detail.error.issues[0];
      skipped.push(
        `${typeof name === 'string' ? name.slice(0, 200) : `entry ${index + 1}`}: ${issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'not a server'}`,
      );
      return;
    }
    const official = (wrapped?._meta as Record<string, { status?: unknown }> | undefined)?.['io.modelcontextprotocol.registry/official'];
    servers.push({ ...detail.data, ...(typeof official?.status === 'string' ? { status: official.status } : {}) });
  });
  const metadata = (body as { metadata?: { nextCursor?: unknown } }).metadata;
  const next = metadata?.nextCursor;
  return { servers, ...(typeof next === 'string' && next !== '' ? { nextCursor: next } : {}), skipped };
}

async function readLimited(response: Response, where: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_REGISTRY_RESPONSE_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw new RegistryError(`The MCP registry at ${where} sent more than ${MAX_REGISTRY_RESPONSE_BYTES} bytes for one page; not read.`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_REGISTRY_RESPONSE_BYTES) {
      await reader.cancel().catch(() => {});
      throw new RegistryError(`The MCP registry at ${where} sent more than ${MAX_REGISTRY_RESPONSE_BYTES} bytes for one page; not read.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
