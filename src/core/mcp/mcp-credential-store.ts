import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where MCP sign-in credentials live: VS Code's SecretStorage in the extension, a file only the
 * user can read in the CLI. Values are opaque strings, one per key.
 */
export interface McpCredentialStore {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** The CLI's credentials file in Smith's storage folder. */
export const MCP_CREDENTIALS_FILE = 'mcp-credentials.json';

/**
 * A credentials file, mode 0600 (its folder 0700 when created): every write replaces it through a
 * temporary file of the same mode, so a crash leaves the old or the new file, never half of one.
 * Two processes writing at the same moment can lose one of the writes (the last rename wins).
 */
export class FileCredentialStore implements McpCredentialStore {
  readonly path: string;

  constructor(storageDir: string) {
    this.path = join(storageDir, MCP_CREDENTIALS_FILE);
  }

  async get(key: string): Promise<string | undefined> {
    const value = this.read()[key];
    return typeof value === 'string' ? value : undefined;
  }

  async store(key: string, value: string): Promise<void> {
    this.write({ ...this.read(), [key]: value });
  }

  async delete(key: string): Promise<void> {
    const all = this.read();
    if (!Object.hasOwn(all, key)) return;
    delete all[key];
    this.write(all);
  }

  private read(): Record<string, unknown> {
    try {
      const data = JSON.parse(readFileSync(this.path, 'utf8')) as { credentials?: unknown };
      return typeof data.credentials === 'object' && data.credentials !== null && !Array.isArray(data.credentials)
        ? { ...(data.credentials as Record<string, unknown>) }
        : {};
    } catch {
      // Missing or damaged: no one is signed in, and the next sign-in writes a good file.
      return {};
    }
  }

  private write(credentials: Record<string, unknown>): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ version: 1, credentials }, null, 2)}\n`, { mode: 0o600 });
    // writeFileSync's mode applies only to a new file; a leftover temporary file keeps its own.
    chmodSync(temp, 0o600);
    renameSync(temp, this.path);
  }
}
