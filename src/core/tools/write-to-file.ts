import { decodeText } from './file-text.js';
import { applyProposedEdit } from './apply-proposed-edit.js';
import { mistake, type ToolHandler } from './tool-spec.js';
import { isOutcome, resolveToolPath } from './tool-paths.js';

/** write_to_file: creates a file or replaces its whole content. */
export const writeToFileTool: ToolHandler = {
  spec: {
    name: 'write_to_file',
    group: 'edit',
    description:
      "Create a new file, or overwrite an existing file with new content. Always give the COMPLETE file content, never a partial file or placeholders such as '// rest unchanged'. Parent folders are created. For changes to part of an existing file, prefer replace_in_file.",
    params: [
      { name: 'path', required: true, description: 'Path of the file, relative to the workspace.' },
      { name: 'content', required: true, description: 'The complete content of the file.' },
    ],
    example: '<write_to_file>\n<path>src/greeting.ts</path>\n<content>\nexport const greeting = "hello";\n</content>\n</write_to_file>',
  },
  async execute(params, context) {
    const target = resolveToolPath(context, params.path!);
    if (isOutcome(target)) return target;
    const exists = await context.host.files.exists(target.absolute);
    let original = '';
    if (exists) {
      const decoded = decodeText(await context.host.files.readFile(target.absolute));
      if ('binary' in decoded) return mistake(`${target.display} is a binary file; write_to_file only writes text files.`);
      original = decoded.text;
    }
    const proposed = matchLineEndings(withFinalNewline(stripCodeFence(params.content ?? '', target.display), original, exists), original);
    return applyProposedEdit(context, target, { original, proposed, isNewFile: !exists });
  },
};

/** Models sometimes wrap the whole content in a Markdown fence; drop it unless the file is Markdown. */
function stripCodeFence(content: string, path: string): string {
  if (/\.(md|markdown|mdx)$/i.test(path)) return content;
  const fenced = /^```[\w.+-]*\n([\s\S]*?)\n?```\s*$/.exec(content);
  return fenced ? `${fenced[1]}\n` : content;
}

/** Files end with a newline, unless the file being replaced deliberately had none. */
function withFinalNewline(content: string, original: string, exists: boolean): string {
  if (content === '' || content.endsWith('\n')) return content;
  if (exists && original !== '' && !original.endsWith('\n')) return content;
  return `${content}\n`;
}

/** A rewrite of a CRLF file keeps CRLF (models write LF). */
function matchLineEndings(proposed: string, original: string): string {
  const originalUsesCrlf = /\r\n/.test(original) && !/(^|[^\r])\n/.test(original);
  if (!originalUsesCrlf) return proposed;
  return proposed.replace(/\r?\n/g, '\r\n');
}
