import { isInside } from '../workspace/contained-files.js';
import type { WorkspaceRoots } from '../workspace/workspace-roots.js';
import { resolveWorkspacePath } from '../workspace/workspace-paths.js';
import { type PermissionRuleName, toolEntry, toolForClaudeName } from '../../shared/tool-catalogue.js';
import { judgeCall, type PermissionRule, ruleCovers } from './permission-rules.js';
import { parseRule } from './rule-syntax.js';

// A skill's `allowed-tools` (Claude Code's names and permission-rule syntax: `Read`, `Grep`,
// `Bash(git diff:*)`, `Edit(src/**)`, `mcp__github__create_issue`) become Smith permission rules,
// judged by the same matcher as the user's own rules (permission-rules.ts).

/** The rule names Smith's permission rules already understand. */
const RULE_NAMES: readonly PermissionRuleName[] = ['Read', 'Edit', 'Write', 'Bash', 'WebFetch', 'WebSearch'];

/** A skill's allowed-tools as Smith rules, and the entries Smith cannot apply (with why). */
export interface SkillToolRules {
  /** Smith permission rules (`Read`, `Bash(git:*)`, `search_files`); a call must match one. */
  readonly rules: readonly string[];
  readonly ignored: readonly string[];
}

/**
 * Maps each allowed-tools entry onto a Smith rule: Claude Code's rule names (`Read`, `Edit`,
 * `Write`, `Bash`, `WebFetch`) and `mcp__…` as they are, Smith's own tool names as they are, other
 * Claude Code tool names (`Grep`, `LS`, `Glob`, `MultiEdit`; the catalogue's `claudeName` and
 * `claudeAliases`) to the tool they stand for, the pattern kept. An entry that is not rule syntax, or names a tool Smith does not have, is
 * ignored (so it allows nothing).
 */
export function skillToolRules(entries: readonly string[]): SkillToolRules {
  const rules: string[] = [];
  const ignored: string[] = [];
  for (const entry of entries) {
    let parsed: ReturnType<typeof parseRule>;
    try {
      parsed = parseRule(entry);
    } catch {
      ignored.push(`${entry} (not Tool or Tool(pattern))`);
      continue;
    }
    const name = smithRuleName(parsed.name);
    if (name === undefined) {
      ignored.push(`${entry} (Smith has no such tool)`);
      continue;
    }
    rules.push(parsed.pattern === undefined ? name : `${name}(${parsed.pattern})`);
  }
  return { rules, ignored };
}

function smithRuleName(name: string): string | undefined {
  if ((RULE_NAMES as readonly string[]).includes(name) || name.startsWith('mcp__')) return name;
  return toolForClaudeName(name);
}

/** A call to check against the active skill. */
interface SkillCall {
  readonly tool: string;
  readonly params: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly workspace?: WorkspaceRoots;
}

/** The skill in force: its name, its folder, and the rules of its allowed-tools. */
export interface SkillLimits {
  readonly name: string;
  readonly dir: string;
  readonly allowedTools: readonly string[];
  readonly rules: readonly string[];
}

/**
 * Whether the active skill lets this call run. Every skill keeps the interaction tools (asking,
 * finishing, planning, the todo list), use_skill (to load another), and reading its own folder;
 * anything else must match one of its rules: a rule without a pattern covers every call of the
 * tools it names, one with a pattern is judged as the user's allow rule would be (a command line
 * only when every command in it matches).
 */
export async function skillAllowsCall(limits: SkillLimits, call: SkillCall): Promise<boolean> {
  const entry = toolEntry(call.tool);
  if (entry?.group === 'interaction') return true;
  if (entry?.group === 'read' && call.params.path !== undefined) {
    const absolute = resolveWorkspacePath(call.workspace ?? call.cwd, call.params.path).absolute;
    if (isInside(absolute, limits.dir)) return true;
  }
  const rules: PermissionRule[] = limits.rules.map((rule) => ({ effect: 'allow', rule, source: `the ${limits.name} skill's allowed-tools` }));
  const covering = rules.filter((rule) => ruleCovers(rule, call.tool, call.params));
  if (covering.some((rule) => parseRule(rule.rule).pattern === undefined || parseRule(rule.rule).name.startsWith('mcp__'))) return true;
  if (covering.length === 0) return false;
  const verdict = await judgeCall(covering, { tool: call.tool, params: call.params, cwd: call.cwd, ...(call.workspace ? { workspace: call.workspace } : {}) });
  return verdict?.effect === 'allow';
}

/** What the model is told when the active skill refuses a call. */
export function skillRefusal(limits: SkillLimits, tool: string): string {
  const allowed = limits.allowedTools.length > 0 ? limits.allowedTools.join(', ') : 'no tool';
  return `The ${limits.name} skill is active and its allowed-tools permit only ${allowed} (besides asking the user, finishing, loading another skill and reading the skill's own files), so this ${tool} call was not run. Do what the skill allows, load another skill with use_skill if the task needs other tools, or ask the user.`;
}
