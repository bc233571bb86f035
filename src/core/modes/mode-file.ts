// One mode file, in any of the shapes users write: Smith's (one mode, or a list under `modes:`),
// and Roo Code's (`.roomodes`, `custom_modes.yaml`: a list under `customModes:`), in YAML or JSON
// whatever the file is called. Each entry is judged on its own, so one broken mode costs only
// itself: the file's other modes still load, and every problem is named with its file and entry.
import * as z from '../../shared/zod-config.js';
import type { ToolGroup } from '../../shared/tool-catalogue.js';
import { parseYaml } from '../workspace/yaml.js';
import type { Mode, ModeGroupGrant } from './mode.js';

/**
 * The group names a mode file may give, and the tool group each one grants (tool-catalogue.ts says
 * which tools are in a group). Roo Code's `modes` group (its switch_mode and new_task) is Smith's
 * `interaction` group, which every mode has anyway.
 */
const GROUP_NAMES: Readonly<Record<string, ToolGroup>> = {
  read: 'read',
  edit: 'edit',
  command: 'command',
  mcp: 'mcp',
  browser: 'browser',
  interaction: 'interaction',
  modes: 'interaction',
};

/** Letters, digits and dashes, as Roo Code allows; not starting with a dash (it would read as a CLI option). */
const SLUG = /^[a-zA-Z0-9][a-zA-Z0-9-]{0,63}$/;

/** Longest `fileRegex` accepted (a pattern for file paths needs far less). */
const MAX_FILE_REGEX_CHARS = 1000;

const groupOptions = z.object({ fileRegex: z.optional(z.string()), description: z.optional(z.string()) });

const grantSchema = z.union([
  z.string(),
  // Roo Code's restricted group: ["edit", { fileRegex: "\\.md$", description: "Markdown only" }].
  z.tuple([z.string(), groupOptions]),
  z.tuple([z.string()]),
  // Smith's own spelling of the same.
  z.strictObject({ group: z.string(), fileRegex: z.string(), description: z.optional(z.string()) }),
]);

const text = z.string().check(z.refine((value) => value.trim() !== '', 'must not be blank'));

// Unknown fields (Roo Code's `iconName`, `source`, anything newer) are left out, as Roo Code does.
const entrySchema = z.object({
  slug: z.string().check(z.regex(SLUG, 'use letters, digits and dashes (at most 64, not starting with a dash)')),
  name: text,
  roleDefinition: text,
  whenToUse: z.optional(z.string()),
  description: z.optional(z.string()),
  customInstructions: z.optional(z.string()),
  groups: z.array(grantSchema),
});

/** The modes a file defines that can be used, and one message for each thing wrong with it. */
export interface ModeFileContent {
  readonly modes: readonly Mode[];
  readonly errors: readonly string[];
}

/**
 * Reads a mode file's text: YAML, or JSON (told by its content, as Roo Code reads `.roomodes`).
 * `source` is the path the modes record; `label` names the file in messages.
 */
export function readModeFile(label: string, source: string, content: string): ModeFileContent {
  const data = parseModeText(content);
  if (data instanceof Error) return { modes: [], errors: [`Mode file ${label} could not be read: ${data.message}`] };
  const list = entriesOf(data);
  if (typeof list === 'string') return { modes: [], errors: [`Mode file ${label} is invalid: ${list}`] };
  const modes: Mode[] = [];
  const errors: string[] = [];
  const seen = new Map<string, number>();
  list.entries.forEach((entry, index) => {
    const where = list.key ? `${list.key}[${index}]` : '';
    const parsed = parseEntry(entry, source);
    const name = slugOf(entry);
    const unused = `${name ? `the mode "${name}"` : 'this mode'} is not used${list.entries.length > 1 ? " (the file's other modes are)" : ''}`;
    if ('problem' in parsed) {
      errors.push(`Mode file ${label} is invalid at ${[where, parsed.field].filter((part) => part !== '').join('.')}: ${parsed.problem}; ${unused}`);
      return;
    }
    const first = seen.get(parsed.slug);
    if (first !== undefined) {
      errors.push(`Mode file ${label} is invalid at ${where}.slug: "${parsed.slug}" is already defined by ${list.key}[${first}]; the later one is not used`);
      return;
    }
    seen.set(parsed.slug, index);
    modes.push(parsed);
  });
  return { modes, errors };
}

function parseModeText(content: string): unknown {
  const text = content.replace(/^\uFEFF/, '');
  const looksJson = /^\s*[{[]/.test(text);
  try {
    return looksJson ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    if (!looksJson) return error as Error;
    // Flow-style YAML also starts with a brace; say what JSON found wrong if YAML cannot read it either.
    try {
      return parseYaml(text);
    } catch {
      return new Error(`not valid JSON: ${(error as Error).message}`);
    }
  }
}

/** The entries of a file: under `customModes:` (Roo Code), `modes:`, the older `skills:`, or the file as one mode. */
function entriesOf(data: unknown): { key?: string; entries: readonly unknown[] } | string {
  // An empty file defines nothing (Roo Code writes `customModes: []` to start).
  if (data === null || data === undefined) return { entries: [] };
  if (typeof data !== 'object' || Array.isArray(data)) return 'expected customModes: [...] (or one mode with slug, name, roleDefinition, groups)';
  const record = data as Record<string, unknown>;
  for (const key of ['customModes', 'modes', 'skills']) {
    if (!(key in record)) continue;
    const value = record[key];
    if (value === null || value === undefined) return { key, entries: [] };
    if (!Array.isArray(value)) return `${key} must be a list of modes`;
    return { key, entries: value };
  }
  if (Object.keys(record).length === 0) return { entries: [] };
  return { entries: [record] };
}

function slugOf(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const slug = (entry as { slug?: unknown }).slug;
  return typeof slug === 'string' ? slug.slice(0, 80) : undefined;
}

/** What is wrong with an entry: the field (within it) and the problem. */
interface EntryProblem {
  readonly field: string;
  readonly problem: string;
}

/** One entry as a Mode, or what is wrong with it. */
function parseEntry(entry: unknown, source: string): Mode | EntryProblem {
  const parsed = entrySchema.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const missing = issue.path.length > 0 && valueAt(entry, issue.path) === undefined;
    return { field: issue.path.join('.'), problem: missing ? 'it is required' : issue.message };
  }
  const value = parsed.data;
  const groups: ModeGroupGrant[] = [];
  const named = new Set<ToolGroup>();
  for (const [index, raw] of value.groups.entries()) {
    const grant = parseGrant(raw);
    if (typeof grant === 'object' && 'problem' in grant) return { field: `groups.${index}`, problem: grant.problem };
    const group = typeof grant === 'string' ? grant : grant.group;
    // Roo Code's modes and interaction are one group here; naming it twice is harmless.
    if (named.has(group) && group !== 'interaction') return { field: `groups.${index}`, problem: `the ${group} group is listed twice` };
    named.add(group);
    if (!groups.includes(grant)) groups.push(grant);
  }
  return {
    slug: value.slug,
    name: value.name.trim(),
    roleDefinition: value.roleDefinition,
    ...(value.whenToUse?.trim() ? { whenToUse: value.whenToUse.trim() } : {}),
    ...(value.description?.trim() ? { description: value.description.trim() } : {}),
    ...(value.customInstructions?.trim() ? { customInstructions: value.customInstructions } : {}),
    groups,
    source,
  };
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/** A group entry as a grant, or what is wrong with it. */
function parseGrant(raw: z.infer<typeof grantSchema>): ModeGroupGrant | { readonly problem: string } {
  const [name, options] = typeof raw === 'string' ? [raw, undefined] : Array.isArray(raw) ? [raw[0], raw[1]] : [raw.group, raw];
  const group = Object.hasOwn(GROUP_NAMES, name) ? GROUP_NAMES[name] : undefined;
  if (!group) return { problem: `unknown group "${name.slice(0, 40)}" (the groups are ${Object.keys(GROUP_NAMES).join(', ')})` };
  if (options?.fileRegex === undefined) return group;
  const problem = fileRegexProblem(options.fileRegex);
  if (problem) return { problem };
  return { group, fileRegex: options.fileRegex, ...(options.description ? { description: options.description } : {}) };
}

/** Why a fileRegex cannot be used, or undefined: the mode is then not loaded at all, rather than loaded with rights its author did not mean. */
function fileRegexProblem(pattern: string): string | undefined {
  if (pattern.length > MAX_FILE_REGEX_CHARS) return `fileRegex is longer than ${MAX_FILE_REGEX_CHARS} characters`;
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return `fileRegex ${JSON.stringify(pattern)} is not a valid regular expression (${(error as Error).message})`;
  }
}
