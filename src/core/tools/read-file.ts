import type { ReadFacts } from '../../shared/tool-details.js';
import { notAFileMessage } from '../tool-kit/file-reading.js';
import { readLineWindow, type LineWindow } from '../tool-kit/line-window.js';
import { builtInSpec, mistake, type ToolContext, type ToolHandler, type ToolOutcome } from '../tool-kit/tool-spec.js';
import { isOutcome, resolveToolPath } from '../tool-kit/tool-paths.js';
import { imageForModel, MAX_IMAGE_BYTES } from '../context/image-files.js';
import { isNotebookPath } from '../notebooks/notebook-document.js';
import { notebookImagesForModel } from '../notebooks/notebook-images.js';
import { readNotebook } from '../notebooks/notebook-reading.js';

/** Lines returned when the model gives no range; bigger files come with a note to page. */
export const READ_FILE_DEFAULT_LINES = 2000;

/** Most characters of numbered lines one read_file returns (as command output is capped); a note says how to read on. */
export const READ_FILE_MAX_CHARS = 50_000;

/** read_file: a file's text with numbered lines, optionally a line range. */
export const readFileTool: ToolHandler = {
  spec: builtInSpec({
    name: 'read_file',
    description: `Read a text file. Each line is prefixed with its 1-based line number and " | " (the prefix is not part of the file; never copy it into SEARCH blocks). Use start_line/end_line to read part of a large file. At most ${READ_FILE_DEFAULT_LINES} lines and ${READ_FILE_MAX_CHARS} characters come back per call, with a note saying where to continue. Images (PNG, JPEG, GIF, WebP) come back as images when you can see them; other binary files, directories, pipes and devices are refused.`,
    params: [
      { name: 'path', required: true, description: 'Path of the file, relative to the workspace.' },
      { name: 'start_line', required: false, description: 'First line to read (1-based, inclusive).' },
      { name: 'end_line', required: false, description: 'Last line to read (inclusive).' },
    ],
    example: '<read_file>\n<path>src/main.ts</path>\n</read_file>',
  }),
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
    const info = await context.host.files.stat(target.absolute);
    if (!info) return mistake(`File not found: ${target.display}. Check the path (use list_files to see what exists).`);
    const notAFile = notAFileMessage(info, target.display);
    if (notAFile) return mistake(notAFile);
    const answer = await context.approve({ summary: `Read ${target.display}`, path: target.display }, { outsideWorkspace: !target.insideWorkspace });
    if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };

    const first = start ?? 1;
    const last = end ?? first + READ_FILE_DEFAULT_LINES - 1;
    const request = { first, last, maxChars: READ_FILE_MAX_CHARS };
    const notebook = isNotebookPath(target.absolute) ? await readNotebook(context.host.files, target, info, request, context.signal) : undefined;
    const window =
      notebook?.window ??
      (await readLineWindow(context.host.files, target.absolute, info, {
        ...request,
        signal: context.signal,
        ...(context.fileVersions ? { keepBytesUpTo: context.fileVersions.maxBytes } : {}),
      }));
    if (window.kind === 'binary') return readImage(target.display, target.absolute, info.size, context);
    // The version the model saw, so an edit after the user changed the file can be merged into it.
    if (window.bytes) context.fileVersions?.keep(window.stamp, window.bytes);
    const preamble = notebook?.preamble ? `${notebook.preamble}\n\n` : '';
    if (window.totalLines === 0) {
      const read: ReadFacts = { path: target.display, firstLine: 0, lastLine: 0, totalLines: 0, truncated: false };
      const empty = notebook?.view ? '(The notebook has no cells.)' : `(${target.display} is empty.)`;
      return { kind: 'result', output: `${preamble}${empty}`, details: { file: window.stamp, read } };
    }
    if (first > window.totalLines) {
      return mistake(
        `start_line ${first} is past the end of ${notebook?.view ? `the view of ${target.display}` : target.display} (${window.totalLines} lines).`,
      );
    }
    const shownLast = first + window.lines.length - 1;
    const read: ReadFacts = {
      path: target.display,
      firstLine: first,
      lastLine: shownLast,
      totalLines: window.totalLines,
      truncated: window.cutLine !== undefined || shownLast < Math.min(last, window.totalLines),
    };
    const details = { file: window.stamp, read };
    const width = String(shownLast).length;
    const body = window.lines.map((line, i) => `${String(first + i).padStart(width, ' ')} | ${line}`).join('\n');
    const output = `${preamble}${body}${windowNote(window, first, shownLast)}`;
    if (!notebook?.view || !context.modelSupportsImages) return { kind: 'result', output, details };
    // Only the images of the lines shown, so paging through a notebook sends each image once.
    const shown = notebook.view.images.filter((image) => image.line + 1 >= first && image.line + 1 <= shownLast);
    const attached = notebookImagesForModel(shown);
    return { kind: 'result', output: `${output}${attached.note}`, details, ...(attached.images.length > 0 ? { images: attached.images } : {}) };
  },
};

/** Says what was left out and how to read it. */
function windowNote(window: LineWindow, first: number, shownLast: number): string {
  const total = window.totalLines;
  const next = shownLast < total ? ` Continue with start_line=${shownLast + 1}.` : '';
  if (window.cutLine) {
    const shown = window.lines.at(-1)!.length;
    return `\n\n[Line ${window.cutLine.number} has ${window.cutLine.length} characters; only its first ${shown} are shown, as read_file output is capped at ${READ_FILE_MAX_CHARS} characters. read_file cannot show the rest of this line: use search_files to find text in it, or execute_command (for example cut -c${shown + 1}-${shown + 2000}) to see other parts.${next}]`;
  }
  if (window.cappedByChars) {
    return `\n\n[Showing lines ${first}-${shownLast} of ${total}; read_file output is capped at ${READ_FILE_MAX_CHARS} characters. Read the rest with start_line=${shownLast + 1} (and end_line for fewer lines at a time).]`;
  }
  if (shownLast < total) return `\n\n[Showing lines ${first}-${shownLast} of ${total}. Use start_line/end_line to read more.]`;
  return '';
}

function parseLineNumber(value: string | undefined, name: string): number | undefined | string {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 1) return `${name} must be a positive whole number, got "${value}".`;
  return n;
}

/**
 * A binary file: a PNG, JPEG, GIF or WebP image goes to a vision model as an image (the text says
 * what it is, for the log and other models); anything else is refused.
 */
async function readImage(display: string, absolute: string, size: number, context: ToolContext): Promise<ToolOutcome> {
  if (!context.modelSupportsImages) return mistake(`${display} is a binary file; read_file only reads text files.`);
  // Checked before reading: a large binary file is never loaded just to be refused.
  if (size > MAX_IMAGE_BYTES)
    return mistake(`${display} is a binary file of ${size} bytes; read_file reads text files and images up to ${MAX_IMAGE_BYTES} bytes.`);
  const prepared = imageForModel(Buffer.from(await context.host.files.readFile(absolute)), display);
  if ('problem' in prepared) return mistake(`${display} is a binary file; read_file reads text files and images: ${prepared.problem}.`);
  const { mimeType } = prepared.image;
  return { kind: 'result', output: `${display} is an image (${mimeType}, ${size} bytes); it is attached for you to see.`, images: [prepared.image] };
}
