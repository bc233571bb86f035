import { applySearchReplace } from '../edit/search-replace-engine.js';
import { applyProposedEdit, loadEditTarget } from '../tool-kit/apply-proposed-edit.js';
import { changedSinceRead, mergeStaleEdit } from '../tool-kit/stale-edit-merge.js';
import { builtInSpec, mistake, type ToolHandler } from '../tool-kit/tool-spec.js';
import { isOutcome, resolveToolPath } from '../tool-kit/tool-paths.js';
import { notebookTextEditRefusal } from '../notebooks/notebook-document.js';

/** replace_in_file: targeted edits with SEARCH/REPLACE blocks, applied all or nothing. */
export const replaceInFileTool: ToolHandler = {
  spec: builtInSpec({
    name: 'replace_in_file',
    description: [
      'Replace parts of an existing file with SEARCH/REPLACE blocks. Format of each block:',
      '------- SEARCH',
      '[exact lines of the current file]',
      '=======',
      '[the new lines]',
      '+++++++ REPLACE',
      'Rules: the SEARCH text must match the file (whole lines, including indentation and comments); include just enough lines to be unique; list several blocks in the order they appear in the file; to delete, leave the REPLACE part empty; to move code, use one block to delete and one to insert. All blocks are applied together or not at all. Do not copy the "N | " line-number prefixes of read_file output.',
    ].join('\n'),
    params: [
      { name: 'path', required: true, description: 'Path of the file, relative to the workspace.' },
      { name: 'diff', required: true, description: 'One or more SEARCH/REPLACE blocks.' },
    ],
    example:
      '<replace_in_file>\n<path>src/config.ts</path>\n<diff>\n------- SEARCH\nexport const retries = 1;\n=======\nexport const retries = 3;\n+++++++ REPLACE\n</diff>\n</replace_in_file>',
  }),
  async execute(params, context) {
    const target = resolveToolPath(context, params.path!);
    if (isOutcome(target)) return target;
    const current = await loadEditTarget(context, target, 'replace_in_file', { requireRead: false, mergeable: true });
    if (current.kind === 'missing') return mistake(`File not found: ${target.display}. To create a file, use write_to_file.`);
    if (current.kind !== 'file') return current;
    const notebook = notebookTextEditRefusal(target.display, current.text, undefined, 'replace_in_file');
    if (notebook) return mistake(notebook);
    // A file changed since the model's read: the edit is made on the version it read, then merged.
    const edit = applySearchReplace(current.base?.text ?? current.text, params.diff ?? '');
    if (!edit.ok) {
      if (current.base) {
        return mistake(
          `${changedSinceRead(target.display)}, and your edit does not apply to the version you read, so it was not applied and the file is unchanged. Read it again with read_file, then redo your edit on its current content.\n\n${edit.error}`,
        );
      }
      return mistake(`The edit to ${target.display} was not applied; the file is unchanged.\n\n${edit.error}`);
    }
    if (!current.base) return applyProposedEdit(context, target, { original: current.text, proposed: edit.content, isNewFile: false }, current.stamp);
    const merged = await mergeStaleEdit(context, target, current, current.base, edit.content);
    if ('kind' in merged) return merged;
    return applyProposedEdit(context, target, { ...merged, isNewFile: false }, current.stamp);
  },
};
