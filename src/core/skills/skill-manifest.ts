import { splitFrontMatter } from '../workspace/front-matter.js';

// A SKILL.md as the Agent Skills specification (agentskills.io) writes it: YAML front matter with
// `name` and `description` (required), `license`, `compatibility`, `metadata` and `allowed-tools`
// (optional), then Markdown instructions. Claude Code, Cline, Roo Code and Codex read the same file.

/** The longest name the specification allows. */
export const MAX_SKILL_NAME = 64;
/** The longest description the specification allows (it goes into every system prompt). */
export const MAX_SKILL_DESCRIPTION = 1024;
/** The longest compatibility note the specification allows. */
const MAX_COMPATIBILITY = 500;

/** What a SKILL.md says about its skill. */
export interface SkillManifest {
  readonly name: string;
  /** One line: runs of white space (newlines included) are one space. */
  readonly description: string;
  /** `allowed-tools` as written, one entry per tool (`Read`, `Bash(git diff:*)`); absent: no limit. */
  readonly allowedTools?: readonly string[];
  readonly license?: string;
  readonly compatibility?: string;
  readonly metadata?: Readonly<Record<string, string>>;
  /** Claude Code's `disable-model-invocation: true`: the skill is for the user to invoke, never offered to the model. */
  readonly modelInvocable: boolean;
  /** The instructions: the Markdown after the front matter. */
  readonly body: string;
  /** What was wrong in optional fields (they are left out); the skill is still used. */
  readonly warnings: readonly string[];
}

/** A skill name as the specification allows it: lowercase ASCII letters, digits, single hyphens inside. */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Why a name is not a skill name, or undefined when it is one. */
export function skillNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > MAX_SKILL_NAME) return `is ${name.length} characters long; at most ${MAX_SKILL_NAME} are allowed`;
  if (!NAME.test(name)) return 'may hold only lowercase letters a-z, digits and single hyphens, and may not start or end with a hyphen';
  return undefined;
}

/**
 * Reads a SKILL.md found in the folder `folderName`. Returns the manifest, or why the skill cannot
 * be used: no front matter, front matter that is not YAML, a missing or invalid name, a name that is
 * not the folder's, a missing or too long description, a binary file. A missing `name` is the
 * folder's (as Claude Code reads it); a present one must equal it (as the specification and Cline
 * require), so a skill has one name everywhere.
 */
export function parseSkillManifest(text: string, folderName: string): SkillManifest | { readonly problem: string } {
  if (text.includes('\u0000')) return { problem: 'is a binary file, not Markdown' };
  const split = splitFrontMatter(text.replace(/^\uFEFF/, ''));
  if (!split.present) return { problem: 'has no front matter: it must start with a "---" line, then name: and description:, then "---"' };
  if (split.problem) return { problem: split.problem };
  if (split.notMapping) return { problem: 'front matter is not a list of fields (name: …, description: …)' };
  const fields = split.fields;
  const name = fields.name === undefined || fields.name === null ? folderName : fields.name;
  if (typeof name !== 'string') return { problem: 'name: must be text' };
  const nameProblem = skillNameProblem(name);
  if (nameProblem) return { problem: `name "${clip(name)}" ${nameProblem}` };
  if (name !== folderName) return { problem: `name "${name}" is not the name of its folder "${clip(folderName)}"; rename the folder or the skill` };
  if (typeof fields.description !== 'string' || fields.description.trim() === '')
    return { problem: 'description: is missing; say what the skill does and when to use it' };
  const description = fields.description.replace(/\s+/g, ' ').trim();
  if (description.length > MAX_SKILL_DESCRIPTION)
    return { problem: `description: is ${description.length} characters long; at most ${MAX_SKILL_DESCRIPTION} are allowed` };
  const warnings: string[] = [];
  const allowedTools = readAllowedTools(fields['allowed-tools'], warnings);
  const license = optionalText(fields, 'license', undefined, warnings);
  const compatibility = optionalText(fields, 'compatibility', MAX_COMPATIBILITY, warnings);
  const metadata = readMetadata(fields.metadata, warnings);
  return {
    name,
    description,
    ...(allowedTools ? { allowedTools } : {}),
    ...(license ? { license } : {}),
    ...(compatibility ? { compatibility } : {}),
    ...(metadata ? { metadata } : {}),
    modelInvocable: fields['disable-model-invocation'] !== true,
    body: split.body,
    warnings,
  };
}

/**
 * `allowed-tools` as the specification writes it (one string, entries separated by spaces:
 * `Read Bash(git diff:*)`) or as Claude Code users often do (a YAML list, or commas). Spaces inside
 * parentheses belong to the entry (`Bash(npm run *)`). An empty field is an empty list: no tool
 * beyond the ones every skill keeps.
 */
export function splitAllowedTools(text: string): string[] | { readonly problem: string } {
  const entries: string[] = [];
  let current = '';
  let depth = 0;
  for (const char of text) {
    if (char === '(') depth++;
    else if (char === ')') {
      if (depth === 0) return { problem: `")" without "(" in "${clip(text)}"` };
      depth--;
    }
    if (depth === 0 && (/\s/.test(char) || char === ',')) {
      if (current !== '') entries.push(current);
      current = '';
    } else current += char;
  }
  if (depth > 0) return { problem: `"(" without ")" in "${clip(text)}"` };
  if (current !== '') entries.push(current);
  return entries;
}

function readAllowedTools(value: unknown, warnings: string[]): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const parts = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
  if (!parts) {
    warnings.push('allowed-tools: not text or a list of tool names; every tool is refused while the skill is active');
    return [];
  }
  const entries: string[] = [];
  for (const part of parts) {
    // A list item is one entry, spaces and all (`- Bash(npm run *)`); a string is split.
    const split = typeof value === 'string' ? splitAllowedTools(part) : [part.trim()].filter((p) => p !== '');
    if ('problem' in split) {
      warnings.push(`allowed-tools: ${split.problem}; every tool is refused while the skill is active`);
      return [];
    }
    entries.push(...split);
  }
  return entries;
}

function optionalText(fields: Readonly<Record<string, unknown>>, key: string, max: number | undefined, warnings: string[]): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    warnings.push(`${key}: not text; left out`);
    return undefined;
  }
  if (max !== undefined && value.length > max) {
    warnings.push(`${key}: ${value.length} characters long, at most ${max} are allowed; left out`);
    return undefined;
  }
  return value.trim() || undefined;
}

function readMetadata(value: unknown, warnings: string[]): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    warnings.push('metadata: not a mapping of names to text; left out');
    return undefined;
  }
  const metadata: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry === 'string' || typeof entry === 'number' || typeof entry === 'boolean') metadata[key] = String(entry);
    else warnings.push(`metadata.${key}: not text; left out`);
  }
  return metadata;
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > 80 ? `${oneLine.slice(0, 80)}…` : oneLine;
}
