import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import type { WorkspaceTrustCheck } from '../mcp/workspace-trust.js';
import { NotRegularFileError, readRegularFileSync } from '../workspace/regular-file.js';
import type { PermissionEffect, PermissionRule } from './permission-rules.js';
import { parseRule } from './rule-syntax.js';

/** The workspace's settings file; the user's is `settings.json` in Smith's storage folder. */
export const WORKSPACE_SETTINGS_FILE = join('.smith', 'settings.json');

/** Allow rules of a workspace file that wait for the user to trust the workspace. */
export interface HeldBackRules {
  readonly file: string;
  /** What the trust answer is given for: these exact rules (a change asks again). */
  readonly fingerprint: string;
  /** The key under which the answer is stored (beside the MCP servers' answer for the folder). */
  readonly trustKey: string;
  readonly rules: readonly string[];
}

/** The rules from the settings files, what was wrong with them, and what waits for trust. */
export interface PermissionSettings {
  readonly rules: PermissionRule[];
  readonly problems: string[];
  readonly heldBack?: HeldBackRules;
}

const EFFECTS: readonly PermissionEffect[] = ['deny', 'ask', 'allow'];

/**
 * Reads `{"permissions": {"allow": [...], "ask": [...], "deny": [...]}}` (Claude Code's settings
 * shape, comments allowed) from the user's file and the workspace's `.smith/settings.json`. A
 * workspace file may add deny and ask rules freely; its allow rules apply only once the user
 * trusts the workspace for exactly those rules, as for the workspace's MCP servers. A rule that
 * is not valid is reported and left out, never guessed at.
 */
export function loadPermissionSettings(input: { readonly storageDir: string; readonly workspaceRoot: string; readonly trust: WorkspaceTrustCheck }): PermissionSettings {
  const rules: PermissionRule[] = [];
  const problems: string[] = [];
  const userFile = join(input.storageDir, 'settings.json');
  for (const { effect, rule } of readRules(userFile, problems)) rules.push({ effect, rule, source: userFile });
  const workspaceFile = join(input.workspaceRoot, WORKSPACE_SETTINGS_FILE);
  const workspaceRules = readRules(workspaceFile, problems);
  const allows = workspaceRules.filter((r) => r.effect === 'allow').map((r) => r.rule);
  const fingerprint = createHash('sha256').update(JSON.stringify(allows)).digest('hex');
  const trustKey = `${input.workspaceRoot}#permissions`;
  const trusted = allows.length === 0 || input.trust(trustKey, fingerprint) === 'trusted';
  for (const { effect, rule } of workspaceRules) if (effect !== 'allow' || trusted) rules.push({ effect, rule, source: WORKSPACE_SETTINGS_FILE });
  return { rules, problems, ...(trusted ? {} : { heldBack: { file: workspaceFile, fingerprint, trustKey, rules: allows } }) };
}

function readRules(file: string, problems: string[]): Array<{ effect: PermissionEffect; rule: string }> {
  let text: string;
  try {
    text = readRegularFileSync(file).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    problems.push(`${file}: ${error instanceof NotRegularFileError ? 'not a regular file' : (error as Error).message}; its rules are not used`);
    return [];
  }
  const errors: ParseError[] = [];
  const data = parseJsonc(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length > 0) {
    problems.push(`${file}: not valid JSON (${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}); its rules are not used`);
    return [];
  }
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
