import { decodeText } from './file-text.js';
import { mistake, type ToolHandler } from './tool-spec.js';
import { isOutcome, resolveToolPath } from './tool-paths.js';

/** Lines returned when the model gives no range; bigger files come with a note to page. */
export const READ_FILE_DEFAULT_LINES = 2000;

/** read_file: a file's text with numbered lines, optionally a line range. */
export const readFileTool: ToolHandler = {
  spec: {
    name: 'read_file',
    group: 'read',
    description:
      'Read a text file. Each line is prefixed with its 1-based line number and " | " (the prefix is not part of the file; never copy it into SEARCH blocks). Use start_line/end_line to read part of a large file. Binary files are refused.',
    params: [
      { name: 'path', required: true, description: 'Path of the file, relative to the workspace.' },
      { name: 'start_line', required: false, description: 'First line to read (1-based, inclusive).' },
      { name: 'end_line', required: false, description: 'Last line to read (inclusive).' },
    ],
    example: '<read_file>\n<path>src/main.ts</path>\n</read_file>',
  },
  async execute(params, context) {
    const target = resolveToolPath(context, params.path!);
    if (isOutcome(target)) return target;
    const start = parseLineNumber(params.start_line, 'start_line');
    const end = parseLineNumber(params.end_line, 'end_line');
    if (typeof start === 'string') return mistake(start);
    if (typeof end === 'string') return mistake(end);
    if (start !== undefined && end !== undefined && end < start) {
      return mistake(`end_line (${end}) is before start_line (${start}).`);
    }
    if (!(await context.host.files.exists(target.absolute))) {
      return mistake(`File not found: ${target.display}. Check the path (use list_files to see what exists).`);
    }
    const answer = await context.approve(
      { summary: `Read ${target.display}`, path: target.display },
      { outsideWorkspace: !target.insideWorkspace },
    );
    if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };

    const decoded = decodeText(await context.host.files.readFile(target.absolute));
    if ('binary' in decoded) {
      return mistake(`${target.display} is a binary file; read_file only reads text files.`);
    }
    const lines = decoded.text.replace(/^\uFEFF/, '').split(/\r?\n/);
    if (lines.length > 1 && lines.at(-1) === '') lines.pop();
    const first = start ?? 1;
    const last = Math.min(end ?? first + READ_FILE_DEFAULT_LINES - 1, lines.length);
    if (first > lines.length && lines.length > 0) {
      return mistake(`start_line ${first} is past the end of ${target.display} (${lines.length} lines).`);
    }
    const width = String(last).length;
    const body = lines
      .slice(first - 1, last)
      .map((line, i) => `${String(first + i).padStart(width, ' ')} | ${line}`)
      .join('\n');
    const note =
      last < lines.length
        ? `\n\n[Showing lines ${first}-${last} of ${lines.length}. Use start_line/end_line to read more.]`
        : '';
    return { kind: 'result', output: `${body}${note}` };
  },
};

function parseLineNumber(value: string | undefined, name: string): number | undefined | string {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 1) return `${name} must be a positive whole number, got "${value}".`;
  return n;
}
