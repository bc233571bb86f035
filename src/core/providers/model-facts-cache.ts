import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ModelFacts } from './model-facts.js';

/** What a provider's server said about its models, and when (milliseconds since the epoch). */
interface CachedModels {
  readonly fetchedAt: number;
  readonly models: readonly ModelFacts[];
}

interface CacheFile {
  readonly version: 1;
  /** By cacheKey: the provider and its base URL, so two servers of one preset stay apart. */
  readonly servers: Record<string, CachedModels>;
}

/**
 * The model facts providers told, kept in Smith's storage (`model-facts.json`) with the time they
 * were fetched, so a task starts without asking the server again and still knows them when the
 * server is down. A missing or unreadable file is an empty cache; it is rewritten whole.
 */
export class ModelFactsCache {
  private constructor(readonly file: string) {}

  /** The cache in a storage folder. */
  static in(storageDir: string): ModelFactsCache {
    return new ModelFactsCache(join(storageDir, 'model-facts.json'));
  }

  /** The key of one server of one provider. */
  static key(provider: string, baseUrl: string): string {
    return `${provider} ${baseUrl}`;
  }

  /** What was stored for a server, if anything. */
  read(key: string): CachedModels | undefined {
    return this.load().servers[key];
  }

  /** Replaces what is stored for a server with a whole new list. */
  write(key: string, models: readonly ModelFacts[], fetchedAt: number): void {
    const file = this.load();
    this.save({ ...file, servers: { ...file.servers, [key]: { fetchedAt, models } } });
  }

  /** Adds or replaces one model of a server (a server that answers per model, as Ollama's /api/show). */
  upsert(key: string, facts: ModelFacts, fetchedAt: number): void {
    const file = this.load();
    const models = (file.servers[key]?.models ?? []).filter((model) => model.id !== facts.id);
    this.save({ ...file, servers: { ...file.servers, [key]: { fetchedAt, models: [...models, facts] } } });
  }

  private load(): CacheFile {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch {
      return { version: 1, servers: {} };
    }
    const servers = (json as { servers?: unknown } | null)?.servers;
    if ((json as { version?: unknown }).version !== 1 || typeof servers !== 'object' || servers === null) return { version: 1, servers: {} };
    const valid = Object.entries(servers).filter(([, entry]) => isCachedModels(entry));
    return { version: 1, servers: Object.fromEntries(valid) as Record<string, CachedModels> };
  }

  private save(file: CacheFile): void {
    mkdirSync(dirname(this.file), { recursive: true });
    // Through a temp file: two windows writing at once leave one whole file, never a torn one.
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(file, null, 1)}\n`);
    renameSync(temp, this.file);
  }
}

function isCachedModels(value: unknown): value is CachedModels {
  if (typeof value !== 'object' || value === null) return false;
  const { fetchedAt, models } = value as { fetchedAt?: unknown; models?: unknown };
  return (
    typeof fetchedAt === 'number' &&
    Array.isArray(models) &&
    models.every((m) => typeof m === 'object' && m !== null && typeof (m as { id?: unknown }).id === 'string')
  );
}
