import { decodeText as decodeFileText, encodeText, toLf } from '../edit/text-format.js';
import { applyProposedEdit, loadEditTarget } from '../tool-kit/apply-proposed-edit.js';
import { mergeStaleEdit } from '../tool-kit/stale-edit-merge.js';
import { builtInSpec, mistake, type ToolHandler } from '../tool-kit/tool-spec.js';
import { notebookTextEditRefusal } from '../notebooks/notebook-document.js';
import { isOutcome, resolveToolPath } from '../tool-kit/tool-paths.js';

/** write_to_file: creates a file or replaces its whole content. */
export const writeToFileTool: ToolHandler = {
  spec: builtInSpec({
    name: 'write_to_file',
    description:
      "Create a new file, or overwrite an existing file with new content. Always give the COMPLETE file content, never a partial file or placeholders such as '// rest unchanged'. Parent folders are created. To overwrite an existing file, read it with read_file first in this task. For changes to part of an existing file, prefer replace_in_file.",
    params: [
      { name: 'path', required: true, description: 'Path of the file, relative to the workspace.' },
      { name: 'content', required: true, allowEmpty: true, description: 'The complete content of the file (empty for an empty file).' },
    ],
    example: '<write_to_file>\n<path>src/greeting.ts</path>\n<content>\nexport const greeting = "hello";\n</content>\n</write_to_file>',
  }),
  async execute(params, context) {
    const target = resolveToolPath(context, params.path!);
    if (isOutcome(target)) return target;
    const current = await loadEditTarget(context, target, 'write_to_file', { requireRead: true, mergeable: true });
    if (current.kind !== 'file' && current.kind !== 'missing') return current;
    const existing = current.kind === 'file' ? current : undefined;
    const content = stripCodeFence(params.content ?? '', target.display);
    const proposed = layOutContent(content, existing?.text);
    const notebook = notebookTextEditRefusal(target.display, existing?.text, proposed, 'write_to_file');
    if (notebook) return mistake(notebook);
    if (existing?.base) {
      // The file changed since the model's read: its new content replaces the version it read, merged into the changes.
      const merged = await mergeStaleEdit(context, target, existing, existing.base, layOutContent(content, existing.base.text));
      if ('kind' in merged) return merged;
      return applyProposedEdit(context, target, { ...merged, isNewFile: false }, existing.stamp);
    }
    return applyProposedEdit(context, target, { original: existing?.text ?? '', proposed, isNewFile: !existing }, existing?.stamp);
  },
};

/**
 * The model's content laid out as the file it replaces is (what replace_in_file keeps too): its
 * BOM, its line endings (the majority of a mixed file) and whether it ends with a newline. A new
 * file ends with a newline. Empty content is an empty file.
 */
function layOutContent(content: string, original: string | undefined): string {
  const text = content.startsWith('\uFEFF') ? content.slice(1) : content;
  if (text === '') return '';
  if (original === undefined) return text.endsWith('\n') ? text : `${text}\n`;
  return encodeText(toLf(text), decodeFileText(original).format);
}

/** Models sometimes wrap the whole content in a Markdown fence; drop it unless the file is Markdown. */
function stripCodeFence(content: string, path: string): string {
  if (/\.(md|markdown|mdx)$/i.test(path)) return content;
  const fenced = /^```[\w.+-]*\n([\s\S]*?)\n?```\s*$/.exec(content);
  return fenced ? `${fenced[1]}\n` : content;
}
