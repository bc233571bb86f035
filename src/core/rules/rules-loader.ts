import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import ignore from 'ignore';
import { ContainedFiles, describeSkipped, type LoaderCaps, type SkippedEntry } from '../workspace/contained-files.js';
import { parseRule, type RuleConditions } from './rule-front-matter.js';
import { NESTED_RULE_FILES, RULE_FILE_PATTERN, type RuleLocation, USER_RULE_FILES, WORKSPACE_RULE_LOCATIONS } from './rule-sources.js';

export { WORKSPACE_RULES_NAME } from './rule-sources.js';

/** One rules file found, whether it applies now, and why not. */
interface RuleInfo {
  /** How the rule is named in the prompt and in lists: the workspace-relative path, `~/…`, or `global rules: name`. */
  readonly label: string;
  readonly path: string;
  readonly active: boolean;
  /** Why an inactive rule does not apply, or a problem with an active one. */
  readonly note?: string;
}

/** The rules the user wrote for the model, ready for the system prompt. */
interface LoadedRules {
  /** The prompt section, or '' when no rule applies. */
  readonly section: string;
  /** The labels of the rules that apply. */
  readonly sources: readonly string[];
  /** Every rules file found, applying or not, and every entry skipped (inactive, with why). */
  readonly rules: readonly RuleInfo[];
  /** What was not read or was cut, one line each (`.cursor/rules/a.md: links outside the workspace; not read`). */
  readonly notes: readonly string[];
}

/** What decides which rules apply. */
interface RulesInput {
  readonly workspaceRoot: string;
  /** Smith's user-level rules folder (`<storage>/rules`). */
  readonly globalRulesDir?: string;
  /** Where `~/.claude/CLAUDE.md` and `~/.gemini/GEMINI.md` are looked for (default: the user's home folder). */
  readonly homeDir?: string;
  /** The active mode's slug: `.roo/rules-<slug>/` applies only in it. */
  readonly modeSlug?: string;
  /** Workspace-relative paths the task touched: conditional rules and nested AGENTS.md/CLAUDE.md/GEMINI.md follow them. */
  readonly touchedPaths?: readonly string[];
  /** Labels of rules the user turned off. */
  readonly disabled?: ReadonlySet<string>;
  /** Why a rules file's content may not reach the model (the user's Read rules), or undefined: such a file is named, never read. */
  readonly withhold?: (path: string) => string | undefined;
}

/** Longest rule text sent; a longer file is cut with a note, so one huge file cannot crowd out the task. */
export const MAX_RULE_CHARS = 20_000;

/** What the rules loader reads at most: 64 KiB of one file (the rest is cut), 512 KiB in all, 1,000 entries per rules folder. */
const RULE_CAPS: LoaderCaps = { fileBytes: 64 * 1024, totalBytes: 512 * 1024, entries: 1000 };

interface FoundRule {
  readonly label: string;
  readonly path: string;
}

/**
 * Reads every rules file (see rule-sources.ts), weakest first: the user's own, then the
 * workspace's, then the active mode's, then AGENTS.md/CLAUDE.md/GEMINI.md in the folders the task touched,
 * closest last. Read on every request, so a new or edited rule applies at once.
 */
export function loadRules(input: RulesInput): LoadedRules {
  const root = input.workspaceRoot;
  const touched = input.touchedPaths ?? [];
  const home = input.homeDir ?? homedir();
  const userFiles = USER_RULE_FILES.map((rel) => ({ label: `~/${rel}`, path: join(home, rel) }));
  // The user's own rules are read wherever their links point; the workspace's only inside it.
  const files = new ContainedFiles({
    within: [root],
    trusted: [...(input.globalRulesDir ? [input.globalRulesDir] : []), ...userFiles.map((file) => file.path)],
    caps: RULE_CAPS,
  });
  const found: FoundRule[] = [];
  if (input.globalRulesDir) {
    const dir = input.globalRulesDir;
    for (const file of ruleFiles(files, dir)) found.push({ label: `global rules: ${relative(dir, file)}`, path: file });
  }
  found.push(...userFiles);
  const holding = new Set<string>();
  for (const location of WORKSPACE_RULE_LOCATIONS) {
    if (location.path.includes('{mode}') && !input.modeSlug) continue;
    if (location.onlyWithout?.some((other) => holding.has(other))) continue;
    const located = locationFiles(files, root, location, input.modeSlug);
    if (located.some((file) => files.present(file))) holding.add(location.path);
    for (const file of located) found.push({ label: relativeLabel(root, file), path: file });
  }
  for (const file of nestedRuleFiles(root, touched)) found.push({ label: relativeLabel(root, file), path: file });

  const rules: RuleInfo[] = [];
  const parts: { label: string; text: string }[] = [];
  const seen = new Set<string>();
  const frontMatterNotes: string[] = [];
  for (const rule of found) {
    if (seen.has(rule.path)) continue;
    seen.add(rule.path);
    // Candidates that do not exist are no rules (and nothing to withhold).
    if (!files.present(rule.path)) continue;
    const withheld = input.withhold?.(rule.path);
    if (withheld) {
      rules.push({ label: rule.label, path: rule.path, active: false, note: `withheld: ${withheld}` });
      continue;
    }
    const text = files.readText(rule.path, 'cut');
    if (text === undefined || text.trim() === '') continue;
    const parsed = parseRule(text);
    const inactive = input.disabled?.has(rule.label)
      ? 'turned off'
      : parsed.conditions.unreadable
        ? parsed.problem
        : unmetCondition(parsed.conditions, touched);
    const readNote = files.skipped.filter((entry) => entry.path === rule.path).map((entry) => entry.reason);
    if (parsed.problem) frontMatterNotes.push(`${rule.label}: ${parsed.problem}`);
    const note = [inactive ?? parsed.problem, ...readNote].filter((part) => part !== undefined).join('; ');
    rules.push({ label: rule.label, path: rule.path, active: !inactive, ...(note ? { note } : {}) });
    if (!inactive && parsed.body.trim() !== '') parts.push({ label: rule.label, text: capped(parsed.body.trim()) });
  }
  // A cut file is listed with its rule; a file not read at all is listed as skipped.
  const listed = new Set(rules.map((rule) => rule.path));
  for (const entry of files.skipped) {
    if (listed.has(entry.path)) continue;
    listed.add(entry.path);
    rules.push(skippedRule(root, entry));
  }
  const notes = [...files.skipped.map((entry) => describeSkipped(entry, root)), ...frontMatterNotes];
  const withheld = rules.filter((r) => r.note?.startsWith('withheld: ')).map((r) => `[Rules file ${r.label} ${r.note}.]`);
  if (parts.length === 0) return { section: withheld.length > 0 ? `# User's rules\n\n${withheld.join('\n')}` : '', sources: [], rules, notes };
  const body = [...parts.map((p) => `## ${p.label}\n\n${p.text}`), ...withheld].join('\n\n');
  return {
    section: `# User's rules\n\nThe user gave these instructions. Follow them unless they conflict with a direct request in the task. They are listed from the most general to the most specific: where two conflict, follow the later one.\n\n${body}`,
    sources: parts.map((p) => p.label),
    rules,
    notes,
  };
}

function skippedRule(root: string, entry: SkippedEntry): RuleInfo {
  const inside = relative(root, entry.path);
  const label = inside.startsWith('..') ? entry.path : relativeLabel(root, entry.path);
  return { label, path: entry.path, active: false, note: entry.reason };
}

/** Why a conditional rule does not apply yet, or undefined when it applies. */
function unmetCondition(conditions: RuleConditions, touched: readonly string[]): string | undefined {
  if (conditions.alwaysApply) return undefined;
  if (conditions.manual) return 'a manual rule (alwaysApply: false, no globs, no description): Cursor sends it only when mentioned';
  const matcher = ignore().add([...conditions.globs]);
  if (touched.some((path) => matcher.ignores(path))) return undefined;
  return `applies when the task touches ${conditions.globs.join(', ')}`;
}

function locationFiles(files: ContainedFiles, root: string, location: RuleLocation, modeSlug: string | undefined): string[] {
  const path = join(root, location.path.replace('{mode}', modeSlug ?? ''));
  if (location.kind === 'folder' || (location.kind === 'file-or-folder' && files.isFolder(path))) return ruleFiles(files, path, location.skipFolders);
  // Reading says what is wrong with it (and nothing when it does not exist).
  return [path];
}

/** AGENTS.md, CLAUDE.md and GEMINI.md in the folders between the root and each touched path (the root's own are workspace rules). */
function nestedRuleFiles(root: string, touched: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const rel of touched) {
    const absolute = join(root, rel);
    let folder = isDirectory(absolute) ? absolute : dirname(absolute);
    while (folder !== root && folder.startsWith(root + sep)) {
      folders.add(folder);
      folder = dirname(folder);
    }
  }
  // Shallow folders first, so the rules closest to the file come last and win.
  const ordered = [...folders].sort((a, b) => a.split(sep).length - b.split(sep).length || (a < b ? -1 : 1));
  return ordered.flatMap((folder) => NESTED_RULE_FILES.map((name) => join(folder, name)));
}

/** Rule files in a folder, recursively and sorted, leaving out the named sub-folders. */
function ruleFiles(files: ContainedFiles, dir: string, skipFolders: readonly string[] = []): string[] {
  return files.listFiles(dir, { recursive: true, match: (rel) => RULE_FILE_PATTERN.test(rel), skipFolders }).map((file) => file.path);
}

function capped(text: string): string {
  if (text.length <= MAX_RULE_CHARS) return text;
  return `${text.slice(0, MAX_RULE_CHARS)}\n\n[This rules file was cut at ${MAX_RULE_CHARS} characters.]`;
}

function relativeLabel(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}
