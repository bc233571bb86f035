import { stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { SearchFacts } from '../../shared/tool-details.js';
import { listFilesBuiltIn, searchBuiltIn } from '../search/built-in-search.js';
import { DEFAULT_MAX_MATCHES, listFilesWithRipgrep, renderSearchResults, RipgrepError, searchWithRipgrep, type SearchResult } from '../search/ripgrep.js';
import { ancestorIgnoreRules, rulesRelativeToRoot } from '../workspace/file-listing.js';
import { withheldNote, type ReadGuard, type WithheldFile } from '../workspace/read-guard.js';
import type { ResolvedPath } from '../workspace/workspace-paths.js';
import type { WorkspaceRoots } from '../workspace/workspace-roots.js';
import { workspaceOf } from '../tool-kit/tool-paths.js';
import { builtInSpec, mistake, type ToolContext, type ToolHandler } from '../tool-kit/tool-spec.js';

/** search_files: a regex search with ripgrep (or, without one, the built-in search), results grouped by file with context lines. */
export const searchFilesTool: ToolHandler = {
  spec: builtInSpec({
    name: 'search_files',
    description:
      'Search the files in a directory (recursively) for a regular expression and show each match with one line of context around it, grouped by file, as "line | text". The regex uses Rust syntax (as ripgrep does): no look-around or backreferences. Files excluded by .gitignore or .smithignore are not searched; files the user\'s Read rules withhold are not searched and are named at the end. Results stop at 300 matches.',
    params: [
      {
        name: 'path',
        required: true,
        description: 'Directory (or file) to search, relative to the workspace (in a multi-root workspace "." searches every folder).',
      },
      { name: 'regex', required: true, description: 'The regular expression to search for (Rust regex syntax).' },
      { name: 'file_pattern', required: false, description: 'Glob limiting which files are searched, e.g. "*.ts" or "*.{ts,tsx}". Default: all files.' },
    ],
    example: '<search_files>\n<path>src</path>\n<regex>function\\s+parse\\w*</regex>\n<file_pattern>*.ts</file_pattern>\n</search_files>',
  }),
  async execute(params, context) {
    // No ripgrep (a fresh machine, the CLI from npm alone): the built-in search gives the same results.
    const rgPath = await context.host.ripgrepPath();
    const workspace = workspaceOf(context);
    const target = workspace.resolve(params.path!);
    if (target.insideWorkspace && context.ignore.isIgnored(target.absolute)) {
      return mistake(`${target.display} is ignored by ${context.ignore.source}, so it cannot be searched. Work with other paths.`);
    }
    const kind = await stat(target.absolute).then(
      (s): SearchScope['kind'] => (s.isDirectory() ? 'folder' : 'file'),
      () => 'missing' as const,
    );
    if (kind === 'missing') return mistake(`Path not found: ${target.display}. Check the path (use list_files to see what exists).`);
    const regex = params.regex!;
    const filePattern = params.file_pattern?.trim() || undefined;

    const answer = await context.approve(
      { summary: `Search ${target.display} for /${regex}/${filePattern ? ` in ${filePattern}` : ''}`, path: target.display },
      { outsideWorkspace: !target.insideWorkspace },
    );
    if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };

    // The primary root of a multi-root workspace stands for the whole workspace.
    const scopes: SearchScope[] =
      workspace.isMultiRoot && target.absolute === workspace.primary.path
        ? workspace.all.map((root) => ({
            base: root.path,
            target: root.path,
            kind: 'folder',
            prefix: root === workspace.primary ? '' : `${workspace.prefixOf(root)}/`,
            inside: true,
          }))
        : [scopeOf(target, kind, workspace)];
    const pattern = filePattern?.includes('/') ? ignore({ ignorecase: false }).add(filePattern) : undefined;

    const guard = context.readGuard?.covers('search_files') ? context.readGuard : undefined;
    const withheld = new Map<string, WithheldFile>();
    try {
      // Every withheld file in reach is named, whether it matches or not: naming only the
      // matching ones would let the regex probe the content it hides.
      if (guard) for (const scope of scopes) await listScope(scope, { rgPath, regex, filePattern, pattern, context, maxMatches: 0, guard, withheld });
      const results: SearchResult[] = [];
      let remaining = DEFAULT_MAX_MATCHES;
      for (const scope of scopes) {
        if (remaining === 0) {
          results.push({ groups: [], matchCount: 0, truncated: true, maxMatches: DEFAULT_MAX_MATCHES });
          break;
        }
        const found = await searchScope(scope, { rgPath, regex, filePattern, pattern, context, maxMatches: remaining, ...(guard ? { guard, withheld } : {}) });
        remaining -= found.matchCount;
        results.push({ ...found, groups: found.groups.map((g) => ({ ...g, path: scope.inside ? scope.prefix + g.path : toPosix(join(scope.base, g.path)) })) });
      }
      const result: SearchResult = {
        groups: results.flatMap((r) => r.groups),
        matchCount: results.reduce((sum, r) => sum + r.matchCount, 0),
        truncated: results.some((r) => r.truncated),
        maxMatches: DEFAULT_MAX_MATCHES,
      };
      const rendered = renderSearchResults(result);
      const search: SearchFacts = {
        path: target.display,
        query: regex,
        files: result.groups.length,
        matches: result.matchCount,
        truncated: result.truncated || rendered.cut,
      };
      const note = withheldNote([...withheld.values()].sort((a, b) => (a.display < b.display ? -1 : 1)));
      return { kind: 'result', output: note ? `${rendered.text}\n\n${note}` : rendered.text, details: { search } };
    } catch (error) {
      if (error instanceof RipgrepError && error.invalidInput) {
        return mistake(
          `search_files could not use your regex or file_pattern:\n${error.message}\nThe regex uses Rust syntax (no look-around or backreferences); file_pattern is a glob like "*.ts".`,
        );
      }
      if (error instanceof RipgrepError) return { kind: 'error', error: `search_files failed: ${error.message}`, mistake: false };
      throw error;
    }
  },
};

/** One folder ripgrep runs in: paths come out relative to `base` and are shown with `prefix` (outside the workspace: absolute). */
interface SearchScope {
  readonly base: string;
  readonly target: string;
  readonly kind: 'folder' | 'file';
  readonly prefix: string;
  /** Inside the workspace, where the ignore rules apply. */
  readonly inside: boolean;
}

/** Where to run ripgrep for one target: from its workspace folder, so paths come out relative to it; outside, from the target. */
function scopeOf(target: ResolvedPath, kind: 'folder' | 'file', workspace: WorkspaceRoots): SearchScope {
  const folder = kind === 'folder' ? target.absolute : dirname(target.absolute);
  if (!target.root) return { base: folder, target: target.absolute, kind, prefix: '', inside: false };
  const prefix = target.root === workspace.primary ? '' : `${workspace.prefixOf(target.root)}/`;
  return { base: target.root.path, target: target.absolute, kind, prefix, inside: true };
}

interface SearchInputs {
  readonly rgPath: string | undefined;
  readonly regex: string;
  readonly filePattern: string | undefined;
  /** A file_pattern with a folder in it, matched here: it cannot be an rg file type, and --glob would override .gitignore. */
  readonly pattern: Ignore | undefined;
  readonly context: ToolContext;
  readonly maxMatches: number;
  /** The user's Read rules, judged for every file; what they withhold is collected in `withheld` by the name shown. */
  readonly guard?: ReadGuard;
  readonly withheld?: Map<string, WithheldFile>;
}

async function searchScope(scope: SearchScope, inputs: SearchInputs): Promise<SearchResult> {
  const walk = await walkOptions(scope, inputs);
  const search = { ...walk, regex: inputs.regex, maxMatches: inputs.maxMatches };
  return inputs.rgPath === undefined ? searchBuiltIn(search) : searchWithRipgrep({ ...search, rgPath: inputs.rgPath });
}

/** Judges every file the search would read, so the withheld ones are known before any is searched. */
async function listScope(scope: SearchScope, inputs: SearchInputs): Promise<void> {
  const walk = await walkOptions(scope, inputs);
  await (inputs.rgPath === undefined ? listFilesBuiltIn(walk, () => {}) : listFilesWithRipgrep({ ...walk, rgPath: inputs.rgPath }, () => {}));
}

/** The files a scope's search reads: ripgrep's walk, .smithignore, the file pattern and the Read rules. */
async function walkOptions(scope: SearchScope, inputs: SearchInputs) {
  const { base, kind } = scope;
  const { context, pattern, filePattern, guard, withheld } = inputs;
  const targetRel = toPosix(relative(base, scope.target));
  // ripgrep reads the ignore files in and below the target; the ones above it (which rg 13 gets
  // wrong for a subfolder) and .git/info/exclude come from the same code that list_files uses.
  const extraIgnoreRules = scope.inside && kind === 'folder' ? rulesRelativeToRoot(await ancestorIgnoreRules(base, scope.target)) : '';
  return {
    cwd: base,
    target: targetRel || '.',
    ...(filePattern && !pattern ? { fileNamePattern: filePattern } : {}),
    ...(extraIgnoreRules ? { extraIgnoreRules } : {}),
    include: (path: string) => {
      if (scope.inside && context.ignore.isIgnored(join(base, path))) return false;
      // The pattern is relative to the folder searched (for a single file: its own folder).
      if (pattern && !pattern.ignores(kind === 'folder' ? pathUnder(targetRel, path) : basename(path))) return false;
      // Judged where ripgrep found it: a link's own name and where it leads both count.
      const refusal = guard?.refusal(join(base, path), 'search_files');
      if (!refusal) return true;
      const display = scope.inside ? scope.prefix + path : toPosix(join(base, path));
      withheld?.set(display, { display, refusal });
      return false;
    },
    signal: context.signal,
  };
}

function pathUnder(folder: string, path: string): string {
  return folder === '' || !path.startsWith(`${folder}/`) ? path : path.slice(folder.length + 1);
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}
