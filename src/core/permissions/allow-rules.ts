import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { applyEdits, modify, parse as parseJsonc } from 'jsonc-parser/lib/esm/main.js';
import { analyseCommandLine } from './shell-commands.js';
import { renderWords } from './shell-words.js';
import { toolEntry } from '../../shared/tool-catalogue.js';

/**
 * The narrowest rules that allow this call again ("always allow this"): a command's simple
 * commands one by one (`Bash(npm test)`), the path read or edited (`Read(src/a.ts)`,
 * `Edit(src/a.ts)`), the MCP server's tool (`mcp__github__create_issue`), the host fetched or
 * opened (`WebFetch(domain:example.com)`), `WebSearch` for a web search, else the tool itself.
 * Undefined when no rule could allow it: a command line that is opaque (see analyseCommandLine)
 * or writes a file, which rules never allow.
 */
export async function narrowestAllowRules(tool: string, params: Readonly<Record<string, string>>, cwd: string): Promise<string[] | undefined> {
  // The rule name "always allow" writes is the first of the tool's row (tool-catalogue.ts).
  const ruleName = toolEntry(tool)?.rules[0];
  if (ruleName === 'Bash') {
    const line = await analyseCommandLine(params.command ?? '');
    if (line.opaque.length > 0 || line.unallowable.length > 0 || line.commands.length === 0) return undefined;
    // Normalised (`Bash(git push --force)` for `git push '--force'`); a wrapper by its own words (`Bash(timeout 60)`), since what it runs has a rule of its own.
    return [...new Set(line.commands.map((command) => `Bash(${renderWords(command.own ?? command.words)})`))];
  }
  if (ruleName === 'mcp__' && params.server_name && params.tool_name) return [`mcp__${params.server_name}__${params.tool_name}`];
  if (ruleName === 'WebFetch' && params.url) {
    const host = hostOf(params.url);
    if (host) return [`WebFetch(domain:${host})`];
  }
  // A search is allowed again as a whole: its query says nothing a rule could name.
  if (ruleName === 'WebSearch') return ['WebSearch'];
  const path = params.path;
  if (path !== undefined && (ruleName === 'Read' || ruleName === 'Edit' || ruleName === 'Write')) return [`${ruleName}(${rulePath(path, cwd)})`];
  return [tool];
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A path as a rule names it: workspace-relative (`src/a.ts`, and `./a.ts` at the top, since in
 * the rules' .gitignore syntax a bare `a.ts` would match at any depth), so a rule written to the
 * workspace's file holds in every clone; absolute only outside the workspace.
 */
function rulePath(path: string, cwd: string): string {
  const absolute = resolve(cwd, path);
  const rel = relative(cwd, absolute).split(sep).join('/');
  if (rel === '' || rel === '..' || rel.startsWith('../') || isAbsolute(rel)) return absolute;
  return rel.includes('/') ? rel : `./${rel}`;
}

/**
 * Adds allow rules to a settings file (`{"permissions": {"allow": [...]}}`, comments kept),
 * creating it when missing; rules already there are not added twice. Returns the rules added.
 */
export function addAllowRules(file: string, rules: readonly string[]): string[] {
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '{}\n';
  const data = (parseJsonc(text, [], { allowTrailingComma: true }) ?? {}) as { permissions?: { allow?: unknown } };
  const existing = Array.isArray(data.permissions?.allow) ? (data.permissions.allow as unknown[]) : [];
  const added = rules.filter((rule) => !existing.includes(rule));
  if (added.length === 0) return [];
  const formatting = { formattingOptions: { insertSpaces: true, tabSize: 2 } };
  text = applyEdits(text, modify(text, ['permissions', 'allow'], [...existing, ...added], formatting));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
  return added;
}
