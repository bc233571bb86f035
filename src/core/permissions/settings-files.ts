import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import type { WorkspaceTrustCheck } from '../mcp/workspace-trust.js';
import { ContainedFiles, type LoaderCaps } from '../workspace/contained-files.js';
import { HOOK_EVENTS, hookTimeoutSeconds, type HookEvent, type HookGroup, type HookSettings } from '../hooks/hooks.js';
import type { PermissionEffect, PermissionRule } from './permission-rules.js';
import { parseRule } from './rule-syntax.js';

/** The workspace's settings file; the user's is `settings.json` in Smith's storage folder. */
export const WORKSPACE_SETTINGS_FILE = join('.smith', 'settings.json');

/** Allow rules and hooks of a workspace file that wait for the user to trust the workspace. */
export interface HeldBackRules {
  readonly file: string;
  /** What the trust answer is given for: these exact rules (a change asks again). */
  readonly fingerprint: string;
  /** The key under which the answer is stored (beside the MCP servers' answer for the folder). */
  readonly trustKey: string;
  readonly rules: readonly string[];
  /** How many hook commands wait with them. */
  readonly hooks: number;
  /** Those hook commands, each with its event (`PreToolUse: ./check.sh`). */
  readonly hookCommands: readonly string[];
  /** The user said no to these exact rules, or was not asked yet. */
  readonly decision: 'denied' | 'unknown';
}

/** The rules and hooks from the settings files, what was wrong with them, and what waits for trust. */
interface PermissionSettings {
  readonly rules: PermissionRule[];
  readonly hooks: HookSettings;
  readonly problems: string[];
  readonly heldBack?: HeldBackRules;
}

const EFFECTS: readonly PermissionEffect[] = ['deny', 'ask', 'allow'];

/** What the settings loader reads at most: 1 MiB of each of its two files (a larger one is not used), 2 MiB in all. */
const SETTINGS_CAPS: LoaderCaps = { fileBytes: 1024 * 1024, totalBytes: 2 * 1024 * 1024, entries: 0 };

/**
 * Reads `{"permissions": {"allow": [...], "ask": [...], "deny": [...]}, "hooks": {...}}` (Claude
 * Code's settings shape, comments allowed) from the user's file and the workspace's
 * `.smith/settings.json`. A workspace file may add deny and ask rules freely; its allow rules and
 * its hooks (commands it would run) apply only once the user trusts the workspace for exactly
 * those, as for the workspace's MCP servers. Anything not valid is reported and left out.
 */
export function loadPermissionSettings(input: {
  readonly storageDir: string;
  readonly workspaceRoot: string;
  readonly trust: WorkspaceTrustCheck;
}): PermissionSettings {
  const rules: PermissionRule[] = [];
  const problems: string[] = [];
  const userFile = join(input.storageDir, 'settings.json');
  // The workspace's file is read only where its real path lies inside the workspace; the user's wherever it points.
  const files = new ContainedFiles({ within: [input.workspaceRoot], trusted: [userFile], caps: SETTINGS_CAPS });
  const user = readSettingsFile(files, userFile, problems);
  for (const { effect, rule } of user.rules) rules.push({ effect, rule, source: userFile });
  const workspaceFile = join(input.workspaceRoot, WORKSPACE_SETTINGS_FILE);
  const workspace = readSettingsFile(files, workspaceFile, problems);
  const allows = workspace.rules.filter((r) => r.effect === 'allow').map((r) => r.rule);
  const hookCount = Object.values(workspace.hooks)
    .flat()
    .reduce((n, group) => n + group.hooks.length, 0);
  const fingerprint = createHash('sha256')
    .update(JSON.stringify({ allows, hooks: workspace.hooks }))
    .digest('hex');
  const trustKey = `${input.workspaceRoot}#permissions`;
  const decision = allows.length === 0 && hookCount === 0 ? 'trusted' : input.trust(trustKey, fingerprint);
  const trusted = decision === 'trusted';
  for (const { effect, rule } of workspace.rules) if (effect !== 'allow' || trusted) rules.push({ effect, rule, source: WORKSPACE_SETTINGS_FILE });
  const hooks: HookSettings = {};
  for (const event of HOOK_EVENTS) {
    const groups = [...(user.hooks[event] ?? []), ...(trusted ? (workspace.hooks[event] ?? []) : [])];
    if (groups.length > 0) hooks[event] = groups;
  }
  if (decision === 'trusted') return { rules, hooks, problems };
  const hookCommands = Object.entries(workspace.hooks).flatMap(([event, groups]) =>
    (groups ?? []).flatMap((group) => group.hooks.map((hook) => `${event}${group.matcher ? ` (${group.matcher})` : ''}: ${hook.command}`)),
  );
  return { rules, hooks, problems, heldBack: { file: workspaceFile, fingerprint, trustKey, rules: allows, hooks: hookCount, hookCommands, decision } };
}

function readSettingsFile(
  files: ContainedFiles,
  file: string,
  problems: string[],
): { rules: Array<{ effect: PermissionEffect; rule: string }>; hooks: HookSettings } {
  const data = readJson(files, file, problems);
  return { rules: readRules(file, data, problems), hooks: readHooks(file, data, problems) };
}

function readJson(files: ContainedFiles, file: string, problems: string[]): unknown {
  const before = files.skipped.length;
  const text = files.readText(file, 'skip');
  for (const entry of files.skipped.slice(before))
    problems.push(`${file}: ${entry.path === file ? '' : `${entry.path} `}${entry.reason}${text === undefined ? '; its settings are not used' : ''}`);
  if (text === undefined) return undefined;
  const errors: ParseError[] = [];
  const data = parseJsonc(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length > 0) {
    problems.push(`${file}: not valid JSON (${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}); its settings are not used`);
    return undefined;
  }
  return data;
}

/** `hooks: {PreToolUse: [{matcher, hooks: [{type: "command", command, timeout?}]}]}`, as Claude Code writes them. */
function readHooks(file: string, data: unknown, problems: string[]): HookSettings {
  const hooks = (data as { hooks?: unknown } | undefined)?.hooks;
  if (hooks === undefined) return {};
  const settings: HookSettings = {};
  if (!hooks || typeof hooks !== 'object') {
    problems.push(`${file}: "hooks" must be an object keyed by event (${HOOK_EVENTS.join(', ')})`);
    return settings;
  }
  for (const [event, groups] of Object.entries(hooks)) {
    if (!HOOK_EVENTS.includes(event as HookEvent)) {
      problems.push(`${file}: hooks.${event} is not an event Smith runs hooks for (${HOOK_EVENTS.join(', ')}); left out`);
      continue;
    }
    const parsed: HookGroup[] = [];
    for (const group of Array.isArray(groups) ? groups : [groups]) {
      const entry = group as { matcher?: unknown; hooks?: unknown };
      const commands = Array.isArray(entry?.hooks) ? entry.hooks : [];
      const valid = commands.flatMap((hook: { type?: unknown; command?: unknown; timeout?: unknown }) => {
        if (hook?.type !== 'command' || typeof hook.command !== 'string' || hook.command.trim() === '') {
          problems.push(`${file}: a hooks.${event} entry is not {"type": "command", "command": "..."}; left out`);
          return [];
        }
        return [{ command: hook.command, timeoutSeconds: hookTimeoutSeconds(hook.timeout), source: file }];
      });
      if (valid.length > 0) parsed.push({ ...(typeof entry.matcher === 'string' ? { matcher: entry.matcher } : {}), hooks: valid });
    }
    if (parsed.length > 0) settings[event as HookEvent] = parsed;
  }
  return settings;
}

function readRules(file: string, data: unknown, problems: string[]): Array<{ effect: PermissionEffect; rule: string }> {
  const permissions = (data as { permissions?: unknown } | undefined)?.permissions;
  if (permissions === undefined) return [];
  if (!permissions || typeof permissions !== 'object') {
    problems.push(`${file}: "permissions" must be an object with allow, ask and deny lists`);
    return [];
  }
  const found: Array<{ effect: PermissionEffect; rule: string }> = [];
  for (const effect of EFFECTS) {
    const list = (permissions as Record<string, unknown>)[effect];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      problems.push(`${file}: permissions.${effect} must be a list of rules`);
      continue;
    }
    for (const rule of list) {
      try {
        if (typeof rule !== 'string') throw new Error(`${JSON.stringify(rule)} is not a rule (write a string such as "Bash(npm test)")`);
        parseRule(rule);
        found.push({ effect, rule });
      } catch (error) {
        problems.push(`${file}: permissions.${effect}: ${(error as Error).message}; left out`);
      }
    }
  }
  return found;
}
