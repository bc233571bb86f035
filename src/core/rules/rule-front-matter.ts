import { splitFrontMatter } from '../workspace/front-matter.js';
import { readLooseFields, unquote } from './loose-front-matter.js';

/** What a rule file's front matter says about when it applies. */
export interface RuleConditions {
  /** Globs (gitignore syntax, workspace-relative): the rule applies only when the task touched a matching file. */
  readonly globs: readonly string[];
  /** Unconditional: no front matter, no globs, or Cursor's `alwaysApply: true`. */
  readonly alwaysApply: boolean;
  readonly description?: string;
  /** Cursor's manual rule (`alwaysApply: false`, no globs, no description): applied only when mentioned there, never here. */
  readonly manual?: true;
  /** The front matter could not be read well enough to say when the rule applies: it is not applied. */
  readonly unreadable?: true;
}

/** A rule file split into its conditions and its text. */
export interface ParsedRule {
  readonly conditions: RuleConditions;
  readonly body: string;
  /** What could not be read in the front matter, and what follows for the rule. */
  readonly problem?: string;
}

/** The fields that name the paths a rule is about: Cline's, Cursor's, Windsurf's and Copilot's. */
const GLOB_FIELDS = ['paths', 'globs', 'applyTo'] as const;

const OPENING = /^---[ \t]*\r?\n/;

/**
 * Reads a rule's front matter, as Cline (`paths:`), Cursor (`globs:`, `alwaysApply:`,
 * `description:`) and Windsurf/Copilot (`applyTo:`) write it. Front matter that is not YAML is
 * read line by line, as Cursor reads `globs: **\/*.py`. What cannot be read never makes a rule
 * unconditional: without globs or `alwaysApply: true` that could be read, the rule is not applied.
 */
export function parseRule(file: string): ParsedRule {
  const text = file.replace(/^\uFEFF/, '');
  const always = { conditions: { globs: [], alwaysApply: true }, body: text };
  const split = splitFrontMatter(text);
  if (!split.present) {
    const rest = text.replace(OPENING, '');
    const firstLine = rest.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
    if (OPENING.test(text) && namesRuleField(firstLine)) return unreadable(rest, ['it has no closing "---" line']);
    return always;
  }
  const loose = split.problem || split.notMapping ? readLooseFields(split.block ?? '') : undefined;
  // A Markdown file that opens with a `---` rule is no front matter: nothing in it says when the rule applies.
  if (loose && !namesRuleField(split.block ?? '')) return always;
  const fields = loose?.fields ?? split.fields;
  const problems = (loose?.unreadable ?? []).map((line) => `${line} cannot be read`);
  const globs: string[] = [];
  for (const key of GLOB_FIELDS) {
    const read = globList(fields[key]);
    if (typeof read === 'string') problems.push(`${key}: ${read}`);
    else globs.push(...read);
  }
  const alwaysApply = flag(fields.alwaysApply);
  if (alwaysApply === undefined && fields.alwaysApply !== undefined && fields.alwaysApply !== null && fields.alwaysApply !== '')
    problems.push('alwaysApply: not true or false');
  const description = typeof fields.description === 'string' && fields.description.trim() !== '' ? unquote(fields.description.trim()) : undefined;
  const described = description ? { description } : {};
  if (problems.length > 0 && globs.length === 0 && alwaysApply !== true) return unreadable(split.body, problems, described);
  const problem = problems.length > 0 ? `front matter partly unreadable: ${problems.join('; ')}; the rule follows what could be read` : undefined;
  const withProblem = problem ? { problem } : {};
  if (alwaysApply === true || globs.length > 0)
    return { conditions: { globs, alwaysApply: alwaysApply === true, ...described }, body: split.body, ...withProblem };
  if (alwaysApply === false && !description) return { conditions: { globs, alwaysApply: false, manual: true }, body: split.body };
  // No globs: always on (a Cursor rule with only a description is sent too, since nothing here asks for it).
  return { conditions: { globs, alwaysApply: true, ...described }, body: split.body, ...withProblem };
}

/** True when a line starts with a field that says when a rule applies (or Cursor's description). */
function namesRuleField(text: string): boolean {
  return /^[ \t]*(?:paths|globs|applyTo|alwaysApply|description)\b/im.test(text);
}

function unreadable(body: string, problems: readonly string[], described: { description?: string } = {}): ParsedRule {
  return {
    conditions: { globs: [], alwaysApply: false, unreadable: true, ...described },
    body,
    problem: `front matter cannot be read (${problems.join('; ')}); the rule is not applied`,
  };
}

/** Globs as a YAML list, or one comma-separated line as Cursor writes it (`globs: *.ts, "src/**"`, `[a, b]`); a string says what is wrong. */
function globList(value: unknown): readonly string[] | string {
  if (value === undefined || value === null) return [];
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string') {
    let line = value.trim();
    if (line.startsWith('[') !== line.endsWith(']')) return `unclosed list "${line.slice(0, 60)}"`;
    if (line.startsWith('[')) line = line.slice(1, -1);
    items = splitOutsideBraces(line);
  } else return 'not a glob or a list of globs';
  const globs: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') return 'not a glob or a list of globs';
    const glob = unquote(item.trim()).trim();
    if (glob !== '') globs.push(glob);
  }
  return globs;
}

/** Splits at commas, except inside `{a,b}`. */
function splitOutsideBraces(line: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (char === '{') depth++;
    else if (char === '}') depth = Math.max(0, depth - 1);
    else if (char === ',' && depth === 0) {
      parts.push(line.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(line.slice(start));
  return parts;
}

/** `true`/`false` as YAML or as raw text; undefined for anything else. */
function flag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const text = unquote(value.trim()).toLowerCase();
  return text === 'true' ? true : text === 'false' ? false : undefined;
}
