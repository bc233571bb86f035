import { homedir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { parseRule } from './rule-syntax.js';
import { judgeCommandLine } from './command-rules.js';
import { analyseCommandLine } from './shell-commands.js';
import { hostAllowed } from '../process/host-allow-list.js';
import { WorkspaceRoots } from '../workspace/workspace-roots.js';
import type { WebDenyRule } from '../web/web-access.js';
import { ruleNameCovers, ruleNamesOf } from '../../shared/tool-catalogue.js';

/** What a rule does with the calls it matches. Deny always wins, then ask, then allow. */
export type PermissionEffect = 'allow' | 'ask' | 'deny';

/** One rule as the user wrote it, e.g. `Bash(git diff:*)`, `Edit(src/**)`, `mcp__github__create_issue`. */
export interface PermissionRule {
  readonly effect: PermissionEffect;
  readonly rule: string;
  /** Where it came from, for messages (a settings file, `--allow`). */
  readonly source: string;
}

/** A tool call to judge. */
interface PermissionCall {
  readonly tool: string;
  readonly params: Readonly<Record<string, string>>;
  /** The primary workspace folder: relative patterns are the workspace's. */
  readonly cwd: string;
  /** Every folder of a multi-root workspace (absent: `cwd` alone), where a path like `api/src/x.ts` lies. */
  readonly workspace?: WorkspaceRoots;
}

/**
 * The verdict: the effect and the rule that decided it, or undefined when no rule speaks. For a
 * command line, `reason` says which command matched, or why the line cannot be judged (`opaque`:
 * it is asked because the rule, a deny or ask rule for commands, exists).
 */
export type PermissionVerdict =
  | { readonly effect: PermissionEffect; readonly rule: PermissionRule; readonly reason?: string; readonly opaque?: true }
  | undefined;

/**
 * Judges a call against the rules: a deny rule that matches wins, then an ask rule, then allow.
 * A command line is judged by the commands it runs (see analyseCommandLine): deny and ask when
 * any of them matches; asked when a deny or ask rule exists and the line is opaque or a computed
 * word could make a command match one; allow only when every command matches an allow rule and
 * nothing in the line is opaque or writes a file.
 */
export async function judgeCall(rules: readonly PermissionRule[], call: PermissionCall): Promise<PermissionVerdict> {
  if (!ruleNamesOf(call.tool).includes('Bash')) return judgePathCall(rules, call);
  const applicable = rules.filter((rule) => ruleCovers(rule, call.tool, call.params));
  return judgeCommandLine(applicable, await analyseCommandLine(call.params.command ?? ''));
}

/**
 * judgeCall for a call that runs no command line (a path, a URL, an MCP tool), without waiting:
 * the read guard (read-rule-guard.ts) judges each file a search or an outline would show with it.
 */
export function judgePathCall(rules: readonly PermissionRule[], call: PermissionCall): PermissionVerdict {
  const applicable = rules.filter((rule) => ruleCovers(rule, call.tool, call.params));
  if (applicable.length === 0) return undefined;
  const formsFor = pathFormsOnce(call);
  for (const effect of ['deny', 'ask', 'allow'] as const) {
    const rule = applicable.find((r) => r.effect === effect && matches(r, call, formsFor));
    if (rule) return { effect, rule };
  }
  return undefined;
}

/** The path forms of a call, resolved once per call (it touches the disk), not once per rule. */
function pathFormsOnce(call: PermissionCall): (effect: PermissionEffect, path: string) => PathForm[] {
  const forms = new Map<PermissionEffect, PathForm[]>();
  return (effect, path) => {
    const known = forms.get(effect);
    if (known) return known;
    const found = pathForms(path, call, effect);
    forms.set(effect, found);
    return found;
  };
}

/** Whether a rule names this tool at all (its pattern is checked by `matches`); an MCP rule needs the server in `params`. */
export function ruleCovers(rule: PermissionRule, tool: string, params: Readonly<Record<string, string>>): boolean {
  const { name } = parseRule(rule.rule);
  if (name.startsWith('mcp__')) {
    if (!ruleNamesOf(tool).includes('mcp__')) return false;
    const [, server, mcpTool] = name.split('__');
    return server === params.server_name && (mcpTool === undefined || mcpTool === '' || mcpTool === '*' || mcpTool === params.tool_name);
  }
  // Claude Code's rule names (`Read`, `Bash`, …) cover the tools whose catalogue row lists them.
  return name === tool || ruleNameCovers(name, tool);
}

function matches(rule: PermissionRule, call: PermissionCall, formsFor: (effect: PermissionEffect, path: string) => PathForm[]): boolean {
  const { name, pattern } = parseRule(rule.rule);
  if (!pattern || name.startsWith('mcp__')) return true;
  if (name === 'WebFetch') return urlMatches(pattern, call.params.url);
  // WebSearch(domain:…) names the hosts of results, which are filtered (searchResultDenyRules), never a call.
  if (name === 'WebSearch') return false;
  const path = call.params.path;
  return path !== undefined && formsFor(rule.effect, path).some((form) => pathMatches(pattern, form));
}

/**
 * Whether a workspace-relative pattern (.gitignore syntax, as `Edit(…)` rules write it) matches
 * where `path` really leads: symlinks followed, `..` resolved, another folder's files as `<folder>/…`.
 * A path that leads outside the workspace matches no such pattern.
 */
export function realPathMatches(pattern: string, path: string, place: Pick<PermissionCall, 'cwd' | 'workspace'>): boolean {
  const [real] = pathForms(path, { tool: '', params: {}, ...place }, 'allow');
  return real !== undefined && pathMatches(pattern, real);
}

/** A path as a rule judges it: absolute, and as the workspace names it (undefined outside the workspace). */
interface PathForm {
  readonly absolute: string;
  readonly inWorkspace: string | undefined;
}

/**
 * The paths a call's path stands for: where it really leads (the workspace's resolution: another
 * folder's `name/…` form, an absolute path into any folder, symlinks followed), which every rule
 * judges; and, for deny and ask rules, also the path as written, so a rule naming a link itself
 * holds too. Allow rules see only the real path: a link never borrows the permission of its name.
 */
function pathForms(path: string, call: PermissionCall, effect: PermissionEffect): PathForm[] {
  const roots = call.workspace ?? WorkspaceRoots.single(call.cwd);
  const resolved = roots.resolve(path);
  const primary = roots.primary.path;
  // Another folder's files are named `<folder>/…` as the tools name them, also when an ambiguous name makes the tools show them absolute.
  const inWorkspace =
    resolved.root === undefined
      ? undefined
      : resolved.root.path === primary
        ? slashes(relative(primary, resolved.absolute))
        : `${resolved.root.name}/${slashes(relative(resolved.root.path, resolved.absolute))}`;
  const real = { absolute: resolved.absolute, inWorkspace };
  const writtenAbsolute = resolve(call.cwd, path);
  if (effect === 'allow' || writtenAbsolute === real.absolute) return [real];
  const writtenRelative = relative(resolve(call.cwd), writtenAbsolute);
  // The path as written, relative to the primary folder.
  return [
    real,
    { absolute: writtenAbsolute, inWorkspace: writtenRelative.startsWith('..') || isAbsolute(writtenRelative) ? undefined : slashes(writtenRelative) },
  ];
}

function slashes(path: string): string {
  return path.split(sep).join('/');
}

/**
 * `domain:example.com` (Claude Code's WebFetch form) names that host; `domain:*.example.com` the
 * hosts under it. Hosts are compared in their canonical form (see canonical-host.ts), so any
 * spelling of an address, case and trailing dots do not matter. A call without a URL (a browser
 * click) is not matched by a domain; the web tools judge deny rules again on every redirect hop and
 * on the addresses a name resolves to (webDenyRules).
 */
function urlMatches(pattern: string, url: string | undefined): boolean {
  const domain = webFetchDomain(pattern);
  if (domain === undefined || url === undefined) return false;
  try {
    return hostAllowed([domain], new URL(url).hostname);
  } catch {
    return false;
  }
}

function webFetchDomain(pattern: string): string | undefined {
  return /^domain:(.+)$/.exec(pattern)?.[1]?.trim();
}

/** The WebFetch(domain:…) deny rules among `rules`, for the web tools to judge every hop and address with. */
export function webDenyRules(rules: readonly PermissionRule[]): WebDenyRule[] {
  return domainDenyRules(rules, ['WebFetch']);
}

/**
 * The deny rules whose hosts web_search drops from its results: WebSearch(domain:…) and, since a
 * result is a page to fetch, WebFetch(domain:…).
 */
export function searchResultDenyRules(rules: readonly PermissionRule[]): WebDenyRule[] {
  return domainDenyRules(rules, ['WebFetch', 'WebSearch']);
}

function domainDenyRules(rules: readonly PermissionRule[], names: readonly string[]): WebDenyRule[] {
  return rules.flatMap((rule) => {
    if (rule.effect !== 'deny') return [];
    try {
      const { name, pattern } = parseRule(rule.rule);
      const domain = names.includes(name) && pattern ? webFetchDomain(pattern) : undefined;
      return domain ? [{ domain, rule: rule.rule, source: rule.source }] : [];
    } catch {
      return [];
    }
  });
}

/**
 * A path pattern in .gitignore syntax: workspace-relative (`src/**`; `./.env` is the workspace's
 * top-level `.env` only, as a leading `/` anchors a .gitignore line), `~/…` or absolute.
 */
function pathMatches(pattern: string, path: PathForm): boolean {
  const anchoredElsewhere = pattern.startsWith('~/') || isAbsolute(pattern);
  const relativePattern = pattern.startsWith('~/') ? pattern.slice(2) : isAbsolute(pattern) ? pattern.slice(1) : pattern.replace(/^\.\//, '/');
  const rel = anchoredElsewhere ? slashes(relative(pattern.startsWith('~/') ? homedir() : '/', path.absolute)) : path.inWorkspace;
  if (rel === undefined || rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
  return compiledPattern(relativePattern).ignores(rel);
}

// A search judges every file it finds against the same few patterns: each is compiled once.
const compiled = new Map<string, Ignore>();
function compiledPattern(pattern: string): Ignore {
  let matcher = compiled.get(pattern);
  if (!matcher) {
    if (compiled.size > 1000) compiled.clear();
    matcher = ignore().add(pattern);
    compiled.set(pattern, matcher);
  }
  return matcher;
}
