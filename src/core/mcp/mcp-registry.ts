// A client of the MCP Registry API (v0: `GET /v0/servers?search=…&cursor=…`), the official one at
// registry.modelcontextprotocol.io or a company's mirror. It reads the response as the registry's
// OpenAPI describes it ({servers: [{server: server.json, _meta}], metadata: {nextCursor}}), keeps
// what Smith can show and install, and names what it left out.
import { z } from 'zod';

/** The official registry; a setting or flag can name a mirror instead. */
export const DEFAULT_MCP_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** Most bytes of one response read; a larger one is refused, not parsed. */
export const MAX_REGISTRY_RESPONSE_BYTES = 4 * 1024 * 1024;
/** How long one page may take. */
const FETCH_TIMEOUT_MS = 20_000;
/** Servers asked for per page. */
const PAGE_SIZE = 30;

const input = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  default: z.string().max(10_000).optional(),
  value: z.string().max(10_000).optional(),
  placeholder: z.string().max(1000).optional(),
  choices: z.array(z.string().max(1000)).max(200).optional(),
});
/** An environment variable or header a server needs, as the registry describes it. */
export type RegistryInput = z.infer<typeof input>;

const argument = z.object({
  type: z.enum(['positional', 'named']),
  name: z.string().max(200).optional(),
  value: z.string().max(10_000).optional(),
  default: z.string().max(10_000).optional(),
  valueHint: z.string().max(200).optional(),
  isRequired: z.boolean().optional(),
  description: z.string().max(2000).optional(),
});
export type RegistryArgument = z.infer<typeof argument>;

const remoteTransport = z.object({
  type: z.enum(['streamable-http', 'sse']),
  url: z.string().min(1).max(2000),
  headers: z.array(input).max(100).optional(),
});

const registryPackage = z.object({
  registryType: z.string().min(1).max(50),
  identifier: z.string().min(1).max(500),
  version: z.string().max(200).optional(),
  runtimeHint: z.string().max(50).optional(),
  transport: z.union([z.object({ type: z.literal('stdio') }), remoteTransport]),
  runtimeArguments: z.array(argument).max(100).optional(),
  packageArguments: z.array(argument).max(100).optional(),
  environmentVariables: z.array(input).max(100).optional(),
});
export type RegistryPackage = z.infer<typeof registryPackage>;
export type RegistryRemote = z.infer<typeof remoteTransport>;

const serverDetail = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  title: z.string().max(200).optional(),
  version: z.string().max(255).optional(),
  websiteUrl: z.string().max(2000).optional(),
  repository: z.object({ url: z.string().max(2000).optional(), source: z.string().max(100).optional(), subfolder: z.string().max(500).optional() }).optional(),
  packages: z.array(registryPackage).max(50).optional(),
  remotes: z.array(remoteTransport).max(50).optional(),
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
