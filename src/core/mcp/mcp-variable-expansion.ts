// `${VAR}` and `${VAR:-default}` in a server entry, as Claude Code expands them in `.mcp.json`: in
// the command, its arguments, the environment values, the URL and the headers (and Smith's `cwd`
// and `oauth` settings).
// Smith expands every config file the same way, so an entry copied from one file to another keeps
// its meaning.

/** The fields of a raw entry whose strings are expanded; other fields (names, autoApprove…) are taken as written. */
const EXPANDED_FIELDS = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'oauth'] as const;

/** A variable reference: a shell-style name, with an optional `:-default` that runs to the closing brace. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** A string with its references replaced, and the names that had neither a value nor a default. */
interface Expanded<T> {
  readonly value: T;
  readonly missing: readonly string[];
}

/**
 * Replaces each `${NAME}` with the variable's value and each `${NAME:-default}` with the value, or
 * the default when the variable is unset. As in Claude Code, a variable set to the empty string is
 * used as it is (the shell would take the default). A reference to an unset variable without a
 * default stays as written and is reported missing. Values are inserted as they are: a value
 * holding `${…}` is not expanded again.
 */
export function expandVariables(text: string, env: Readonly<Record<string, string | undefined>>): Expanded<string> {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const current = Object.hasOwn(env, name) ? env[name] : undefined;
    if (current !== undefined) return current;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return whole;
  });
  return { value, missing };
}

/** Expands the launch fields of a raw entry (before validation, so an expanded URL is checked as a URL). */
export function expandEntryVariables(
  raw: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): Expanded<Record<string, unknown>> {
  const missing = new Set<string>();
  const expand = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const result = expandVariables(value, env);
      for (const name of result.missing) missing.add(name);
      return result.value;
    }
    if (Array.isArray(value)) return value.map(expand);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expand(item)]));
    return value;
  };
  const out: Record<string, unknown> = { ...raw };
  for (const field of EXPANDED_FIELDS) if (field in out) out[field] = expand(out[field]);
  return { value: out, missing: [...missing] };
}
