import { stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import ignore from 'ignore';
import type { SearchFacts } from '../../shared/tool-details.js';
import { renderSearchResults, RipgrepError, searchWithRipgrep } from '../search/ripgrep.js';
import { ancestorIgnoreRules, rulesRelativeToRoot } from '../workspace/file-listing.js';
import { resolveWorkspacePath } from '../workspace/workspace-paths.js';
import { mistake, type ToolHandler } from './tool-spec.js';

/** The error shown when no ripgrep binary exists; not the model's mistake. */
export const RIPGREP_MISSING_MESSAGE =
  'search_files needs ripgrep (rg), which was not found. Install it (e.g. `apt-get install ripgrep`, `brew install ripgrep`, `winget install BurntSushi.ripgrep.MSVC`) or put it on PATH, then try again. Until then, use list_files and read_file instead.';

/** search_files: a regex search with ripgrep, results grouped by file with context lines. */
export const searchFilesTool: ToolHandler = {
  spec: {
    name: 'search_files',
    group: 'read',
    description:
      'Search the files in a directory (recursively) for a regular expression and show each match with one line of context around it, grouped by file, as "line | text". The regex uses Rust syntax (as ripgrep does): no look-around or backreferences. Files excluded by .gitignore or .smithignore are not searched. Results stop at 300 matches.',
    params: [
      { name: 'path', required: true, description: 'Directory (or file) to search, relative to the workspace.' },
      { name: 'regex', required: true, description: 'The regular expression to search for (Rust regex syntax).' },
      { name: 'file_pattern', required: false, description: 'Glob limiting which files are searched, e.g. "*.ts" or "*.{ts,tsx}". Default: all files.' },
    ],
    example: '<search_files>\n<path>src</path>\n<regex>function\\s+parse\\w*</regex>\n<file_pattern>*.ts</file_pattern>\n</search_files>',
  },
  async execute(params, context) {
    const rgPath = await context.host.ripgrepPath();
    if (!rgPath) return { kind: 'error', error: RIPGREP_MISSING_MESSAGE, mistake: false };
    const target = resolveWorkspacePath(context.cwd, params.path!);
    if (target.insideWorkspace && context.ignore.isIgnored(target.absolute)) {
      return mistake(`${target.display} is ignored by ${context.ignore.source}, so it cannot be searched. Work with other paths.`);
    }
    const kind = await stat(target.absolute).then((s) => (s.isDirectory() ? 'folder' : 'file'), () => 'missing');
    if (kind === 'missing') return mistake(`Path not found: ${target.display}. Check the path (use list_files to see what exists).`);
    const regex = params.regex!;
    const filePattern = params.file_pattern?.trim() || undefined;

    const answer = await context.approve(
      { summary: `Search ${target.display} for /${regex}/${filePattern ? ` in ${filePattern}` : ''}`, path: target.display },
      { outsideWorkspace: !target.insideWorkspace },
    );
    if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };

    const root = resolveWorkspacePath(context.cwd, '.').absolute;
    // rg runs from the workspace root so that paths come out workspace-relative; outside it, from the target.
    const base = target.insideWorkspace ? root : kind === 'folder' ? target.absolute : dirname(target.absolute);
    const targetRel = toPosix(relative(base, target.absolute));
    // ripgrep reads the ignore files in and below the target; the ones above it (which rg 13 gets
    // wrong for a subfolder) and .git/info/exclude come from the same code that list_files uses.
    const extraIgnoreRules = target.insideWorkspace && kind === 'folder' ? rulesRelativeToRoot(await ancestorIgnoreRules(root, target.absolute)) : '';
    // A pattern with a folder in it cannot be an rg file type, and --glob would override .gitignore.
    const pathPattern = filePattern?.includes('/') ? ignore({ ignorecase: false }).add(filePattern) : undefined;

    try {
      const result = await searchWithRipgrep({
        rgPath,
        cwd: base,
        target: targetRel || '.',
        regex,
        ...(filePattern && !pathPattern ? { fileNamePattern: filePattern } : {}),
        ...(extraIgnoreRules ? { extraIgnoreRules } : {}),
        include: (path) => {
          if (target.insideWorkspace && context.ignore.isIgnored(join(base, path))) return false;
          // The pattern is relative to the folder searched (for a single file: its own folder).
          return !pathPattern || pathPattern.ignores(kind === 'folder' ? pathUnder(targetRel, path) : basename(path));
        },
        signal: context.signal,
      });
      const shown = target.insideWorkspace ? result : { ...result, groups: result.groups.map((g) => ({ ...g, path: toPosix(join(base, g.path)) })) };
      const rendered = renderSearchResults(shown);
      const search: SearchFacts = {
        path: target.display,
        query: regex,
        files: result.groups.length,
        matches: result.matchCount,
        truncated: result.truncated || rendered.cut,
      };
      return { kind: 'result', output: rendered.text, details: { search } };
    } catch (error) {
      if (error instanceof RipgrepError && error.invalidInput) {
        return mistake(`search_files could not use your regex or file_pattern:\n${error.message}\nThe regex uses Rust syntax (no look-around or backreferences); file_pattern is a glob like "*.ts".`);
      }
      if (error instanceof RipgrepError) return { kind: 'error', error: `search_files failed: ${error.message}`, mistake: false };
      throw error;
    }
  },
};

function pathUnder(folder: string, path: string): string {
  return folder === '' || !path.startsWith(`${folder}/`) ? path : path.slice(folder.length + 1);
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}
