// A code cell's outputs as read_file shows them: short summaries, never the raw JSON. Stream text
// and text/plain previews are cut, an error is its name, value and the end of its traceback, and
// an image is its type and size (the image itself goes to a model that takes images).
import { stripAnsi } from '../process/output-buffer.js';
import { imageDimensions } from './image-dimensions.js';
import { isRecord } from './notebook-document.js';

/** Lines of one output's text (stream, text/plain) shown at most. */
export const OUTPUT_TEXT_LINES = 30;
/** Characters of one output's text shown at most. */
export const OUTPUT_TEXT_CHARS = 2_000;
/** Last lines of an error's traceback shown. */
export const TRACEBACK_LINES = 12;

/** The image types a vision model takes inline; others (SVG) are described only. */
const MODEL_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** An image an output holds, at a line of the view. */
export interface OutputImage {
  /** The view line (0-based) that names it. */
  readonly line: number;
  readonly cell: number;
  readonly output: number;
  readonly mimeType: string;
  /** Base64, without whitespace. */
  readonly data: string;
  readonly label: string;
}

/** Appends the view of one output to `lines`; returns the image it shows, if any. */
export function appendOutput(lines: string[], output: unknown, cell: number, index: number): OutputImage | undefined {
  const head = `[cell ${cell} output ${index}:`;
  if (!isRecord(output)) {
    lines.push(`${head} not an object]`);
    return undefined;
  }
  switch (output.output_type) {
    case 'stream': {
      lines.push(`${head} stream ${typeof output.name === 'string' ? output.name : ''}]`.replace(' ]', ']'));
      lines.push(...cutText(stripAnsi(textOf(output.text))));
      return undefined;
    }
    case 'error': {
      const name = typeof output.ename === 'string' ? output.ename : 'Error';
      const value = typeof output.evalue === 'string' ? output.evalue : '';
      lines.push(`${head} error ${name}${value ? `: ${value}` : ''}]`);
      const traceback = Array.isArray(output.traceback) ? output.traceback.filter((t): t is string => typeof t === 'string') : [];
      const tracebackLines = stripAnsi(traceback.join('\n')).split('\n');
      if (tracebackLines.length > TRACEBACK_LINES) lines.push(`[traceback: last ${TRACEBACK_LINES} of ${tracebackLines.length} lines]`);
      lines.push(...tracebackLines.slice(-TRACEBACK_LINES).map((line) => clip(line)));
      return undefined;
    }
    case 'execute_result':
    case 'display_data':
    case 'update_display_data': {
      const kind =
        output.output_type === 'execute_result' && typeof output.execution_count === 'number'
          ? `execute_result Out[${output.execution_count}]`
          : output.output_type;
      return appendData(lines, head, kind, isRecord(output.data) ? output.data : {}, cell, index);
    }
    default:
      lines.push(`${head} ${typeof output.output_type === 'string' ? output.output_type : 'unknown output type'}]`);
      return undefined;
  }
}

/** A rich output: its image (described, and kept for a vision model) and its text/plain preview; other types named. */
function appendData(lines: string[], head: string, kind: string, data: Record<string, unknown>, cell: number, index: number): OutputImage | undefined {
  const types = Object.keys(data);
  const imageType = MODEL_IMAGE_TYPES.find((type) => typeof data[type] === 'string' || Array.isArray(data[type]));
  const others = types.filter((type) => type !== 'text/plain' && type !== imageType);
  let image: OutputImage | undefined;
  const parts = [kind];
  if (imageType) {
    const base64 = textOf(data[imageType]).replace(/\s/g, '');
    const label = imageLabel(imageType, base64);
    parts.push(label);
    image = { line: lines.length, cell, output: index, mimeType: imageType, data: base64, label };
  }
  const described = others.map((type) => `${type} (${textOf(data[type]).length} characters)`);
  if (described.length > 0) parts.push(imageType || 'text/plain' in data ? `also ${described.join(', ')}` : described.join(', '));
  lines.push(`${head} ${parts.join(', ')}]`);
  if ('text/plain' in data) lines.push(...cutText(stripAnsi(textOf(data['text/plain']))));
  return image;
}

/** "image/png 640x480, 12.3 KB"; the size alone when the header cannot be read. */
function imageLabel(mimeType: string, base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  const size = bytes.byteLength >= 1024 ? `${(bytes.byteLength / 1024).toFixed(1)} KB` : `${bytes.byteLength} bytes`;
  const dimensions = imageDimensions(bytes);
  return dimensions ? `${mimeType} ${dimensions.width}x${dimensions.height}, ${size}` : `${mimeType}, ${size}`;
}

/** nbformat's multi-line string: a string or a list of strings; anything else is shown as its JSON. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join('');
  return value === undefined ? '' : JSON.stringify(value);
}

/** The first lines of an output's text within the caps, with a line saying how much was left out. */
function cutText(text: string): string[] {
  const all = text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
  const kept: string[] = [];
  let chars = 0;
  for (const line of all) {
    if (kept.length >= OUTPUT_TEXT_LINES || chars + line.length > OUTPUT_TEXT_CHARS) break;
    kept.push(line);
    chars += line.length + 1;
  }
  if (kept.length === 0 && all[0] !== undefined && all[0] !== '') kept.push(`${all[0].slice(0, OUTPUT_TEXT_CHARS)}…`);
  const left = all.length - kept.length;
  if (left > 0) kept.push(`[… ${left} more line${left === 1 ? '' : 's'} of this output (${text.length} characters in all)]`);
  return kept;
}

/** One traceback line, kept to a readable length. */
function clip(line: string): string {
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}
