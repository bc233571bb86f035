/** What a secret is replaced with wherever Smith shows, logs or sends text. */
export const REDACTED = '[REDACTED]';

/** Shorter values are not treated as secrets: redacting them would blank out ordinary text. */
const MIN_SECRET_LENGTH = 8;

/**
 * Replaces the exact values of the user's secrets (API keys, MCP credentials) in text. Secrets are
 * grouped by where they come from, so a host can replace one group when a setting changes.
 */
export class SecretRedactor {
  private readonly groups = new Map<string, readonly string[]>();
  private readonly tracked = new Map<string, { read: () => Iterable<string | undefined>; last: string }>();
  private values: readonly string[] = [];

  /** Sets the secrets of one group (e.g. "provider", "mcp"), replacing its earlier ones; short or empty values are skipped. */
  set(group: string, values: Iterable<string | undefined>): void {
    const kept = [...values].filter((v): v is string => typeof v === 'string' && v.trim().length >= MIN_SECRET_LENGTH);
    this.groups.set(group, kept);
    // Longest first, so a secret that contains another is replaced whole.
    this.values = [...new Set([...this.groups.values()].flat())].sort((a, b) => b.length - a.length);
  }

  /** Keeps a group in step with a live source (e.g. the MCP servers' settings), read again before each use. */
  track(group: string, read: () => Iterable<string | undefined>): void {
    this.tracked.set(group, { read, last: '\0' });
  }

  /** True when there is nothing to redact. */
  get empty(): boolean {
    this.sync();
    return this.values.length === 0;
  }

  /** The text with every secret replaced by REDACTED. */
  redact(text: string): string {
    this.sync();
    return this.replace(text);
  }

  /** A copy of a JSON-like value with every string in it redacted (the value itself is not changed). */
  redactDeep<T>(value: T): T {
    // One look at the tracked sources per value, not per string in it.
    if (this.empty) return value;
    return this.walk(value) as T;
  }

  /**
   * How much of a growing text can be shown now: everything except a tail that could be the start
   * of a secret still arriving. Showing `redact(text.slice(0, n))` is then never undone by later text.
   */
  settledLength(text: string): number {
    this.sync();
    let hold = 0;
    for (const secret of this.values) {
      const first = secret.charCodeAt(0);
      for (let k = Math.min(secret.length - 1, text.length); k > hold; k--) {
        if (text.charCodeAt(text.length - k) === first && text.endsWith(secret.slice(0, k))) {
          hold = k;
          break;
        }
      }
    }
    return text.length - hold;
  }

  /** The redacted part of a growing text that is safe to show now (see settledLength). */
  settledPrefix(text: string): string {
    return this.replace(text.slice(0, this.settledLength(text)));
  }

  /** A redactor for text that arrives in chunks: each call returns the newly settled, redacted output. */
  stream(): RedactingStream {
    let pending = '';
    return {
      push: (chunk) => {
        pending += chunk;
        const settled = this.settledLength(pending);
        const out = this.replace(pending.slice(0, settled));
        pending = pending.slice(settled);
        return out;
      },
      end: () => {
        const out = this.redact(pending);
        pending = '';
        return out;
      },
    };
  }

  private replace(text: string): string {
    let out = text;
    for (const secret of this.values) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  private sync(): void {
    for (const [group, source] of this.tracked) {
      const values = [...source.read()];
      const key = values.join('\0');
      if (key === source.last) continue;
      source.last = key;
      this.set(group, values);
    }
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.replace(value);
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    // Only plain data is copied; anything else (buffers, signals, class instances) is passed on as it is.
    if (typeof value === 'object' && value !== null && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[key] = this.walk(item);
      return out;
    }
    return value;
  }
}

/** Chunked text through a redactor; end() returns what was held back. */
export interface RedactingStream {
  push(chunk: string): string;
  end(): string;
}

const CREDENTIAL_NAME = /key|token|secret|passw|pwd|auth|credential|cookie|session|private|signature/i;

/**
 * The values of an env or header map whose names look like credentials (API_KEY, GITHUB_TOKEN,
 * Authorization, ...), and for "Bearer x" / "Basic x" / "token x" also the bare token.
 */
export function credentialValues(entries: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(entries)) {
    if (!CREDENTIAL_NAME.test(name)) continue;
    out.push(value);
    const scheme = /^(?:bearer|basic|token|bot)\s+(\S+)$/i.exec(value.trim());
    if (scheme) out.push(scheme[1]!);
  }
  return out;
}
