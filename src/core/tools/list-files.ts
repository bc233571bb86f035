import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { parse } from 'node:path';
import type { ListFacts } from '../../shared/tool-details.js';
import { formatListing, listWorkspaceFiles } from '../workspace/file-listing.js';
import { NOTHING_IGNORED } from '../workspace/ignore-policy.js';
import { listWorkspaceFolder } from '../workspace/root-listing.js';
import { resolveWorkspacePath } from '../workspace/workspace-paths.js';
import { workspaceOf } from '../tool-kit/tool-paths.js';
import { builtInSpec, mistake, type ToolHandler } from '../tool-kit/tool-spec.js';

/** Most entries list_files returns; the top levels come first, then a note says how to see more. */
export const LIST_FILES_LIMIT = 200;

/** list_files: the files and folders in a folder, optionally recursive. */
export const listFilesTool: ToolHandler = {
  spec: builtInSpec({
    name: 'list_files',
    description: `List the files and folders in a directory (folders end with "/"). With recursive=true, lists everything below it, top levels first, up to ${LIST_FILES_LIMIT} entries. Files excluded by .gitignore, .smithignore, node_modules and .git are left out. Do not use it to check whether a file you just created exists; the tool result already told you.`,
    params: [
      { name: 'path', required: true, description: 'Path of the directory, relative to the workspace (in a multi-root workspace "." lists every folder).' },
      { name: 'recursive', required: false, description: '"true" to list recursively, "false" (default) for the top level only.' },
    ],
    example: '<list_files>\n<path>src</path>\n<recursive>true</recursive>\n</list_files>',
  }),
  async execute(params, context) {
    const recursive = parseRecursive(params.recursive);
    if (typeof recursive === 'string') return mistake(recursive);
    const workspace = workspaceOf(context);
    const target = workspace.resolve(params.path!);
    if (target.insideWorkspace && context.ignore.isIgnored(target.absolute)) {
      return mistake(`${target.display} is ignored by ${context.ignore.source}, so it cannot be listed. Work with other paths.`);
    }
    if (recursive && isRootOrHome(target.absolute)) {
      return mistake(
        `Refusing to list ${target.absolute} recursively: it is the ${target.absolute === parse(target.absolute).root ? 'filesystem root' : 'home directory'} and would walk far too many files. List it with recursive=false, or name a subfolder.`,
      );
    }
    const kind = await stat(target.absolute).then(
      (s) => (s.isDirectory() ? 'folder' : 'file'),
      () => 'missing',
    );
    if (kind === 'missing') return mistake(`Directory not found: ${target.display}. Check the path (list the parent folder to see what exists).`);
    if (kind === 'file') return mistake(`${target.display} is a file, not a directory. Use read_file to read it.`);
    const answer = await context.approve(
      { summary: `List files in ${target.display}${recursive ? ' (recursive)' : ''}`, path: target.display },
      { outsideWorkspace: !target.insideWorkspace },
    );
    if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };

    // Outside the workspace the listed folder is the root of its own entries, and .smithignore has no say.
    const listing = target.root
      ? await listWorkspaceFolder(workspace, target.root, target.absolute, { recursive, limit: LIST_FILES_LIMIT, ignore: context.ignore })
      : await listWorkspaceFiles({ root: target.absolute, dir: target.absolute, recursive, limit: LIST_FILES_LIMIT, ignore: NOTHING_IGNORED });
    const output = formatListing(listing);
    const list: ListFacts = { path: target.display, recursive, entries: listing.entries.length, truncated: listing.truncated };
    return { kind: 'result', output: target.insideWorkspace ? output : `Contents of ${target.absolute} (paths relative to it):\n${output}`, details: { list } };
  },
};

function parseRecursive(value: string | undefined): boolean | string {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  return `recursive must be "true" or "false", got "${value}".`;
}

function isRootOrHome(absolute: string): boolean {
  if (absolute === parse(absolute).root) return true;
  return absolute === resolveWorkspacePath(homedir(), '.').absolute;
}
