import { parse as parseYaml } from 'yaml';

/** What a rule file's front matter says about when it applies. */
export interface RuleConditions {
  /** Globs (gitignore syntax, workspace-relative): the rule applies only when the task touched a matching file. */
  readonly globs: readonly string[];
  /** Cursor's `alwaysApply: true`: unconditional even with globs. */
  readonly alwaysApply: boolean;
  readonly description?: string;
}

/** A rule file split into its conditions and its text. */
export interface ParsedRule {
  readonly conditions: RuleConditions;
  readonly body: string;
  /** Why the front matter was ignored, when it could not be read. */
  readonly problem?: string;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Reads a rule's front matter, as Cline (`paths:`), Cursor (`globs:`, `alwaysApply:`,
 * `description:`) and Windsurf/Copilot (`applyTo:`) write it. A file without front matter, or with
 * front matter that is not YAML, applies always (with the problem reported).
 */
export function parseRule(text: string): ParsedRule {
  const match = FRONT_MATTER.exec(text);
  const always: RuleConditions = { globs: [], alwaysApply: true };
  if (!match) return { conditions: always, body: text };
  const body = text.slice(match[0].length);
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? '');
  } catch (error) {
    return { conditions: always, body, problem: `front matter is not valid YAML (${(error as Error).message.split('\n')[0]}); the rule applies always` };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { conditions: always, body };
  const fields = data as Record<string, unknown>;
  const globs = [fields.paths, fields.globs, fields.applyTo].flatMap(globList);
  const description = typeof fields.description === 'string' ? fields.description : undefined;
  return {
    conditions: { globs, alwaysApply: fields.alwaysApply === true || globs.length === 0, ...(description ? { description } : {}) },
    body,
  };
}

/** Globs as a YAML list or one comma-separated string (Cursor writes `globs: *.ts, *.tsx`). */
function globList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return items.filter((item): item is string => typeof item === 'string').map((item) => item.trim()).filter((item) => item !== '');
}
