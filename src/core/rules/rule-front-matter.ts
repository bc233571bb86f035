import { splitFrontMatter } from '../workspace/front-matter.js';

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

/**
 * Reads a rule's front matter, as Cline (`paths:`), Cursor (`globs:`, `alwaysApply:`,
 * `description:`) and Windsurf/Copilot (`applyTo:`) write it. A file without front matter, or with
 * front matter that is not YAML, applies always (with the problem reported).
 */
export function parseRule(text: string): ParsedRule {
  const { fields, body, problem } = splitFrontMatter(text);
  if (problem) return { conditions: { globs: [], alwaysApply: true }, body, problem: `${problem}; the rule applies always` };
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
