/** How a file's text is laid out on disk, so an edit can give it back the same way. */
interface TextFormat {
  readonly bom: boolean;
  readonly eol: '\n' | '\r\n';
  readonly finalNewline: boolean;
}

/** A file's text with BOM removed and line endings normalised to LF, plus how to restore them. */
interface DecodedText {
  readonly text: string;
  readonly format: TextFormat;
}

const BOM = '\uFEFF';

/** Splits raw file text into LF-only text and the format needed to restore it. */
export function decodeText(raw: string): DecodedText {
  const bom = raw.startsWith(BOM);
  const body = bom ? raw.slice(1) : raw;
  // An empty file has no last line lacking a newline, so content written into it gets one.
  const finalNewline = body === '' || body.endsWith('\n');
  // Most files have no CRLF at all: one scan settles it, without counting lines.
  if (!body.includes('\r\n')) return { text: body, format: { bom, eol: '\n', finalNewline } };
  const text = toLf(body);
  const newlines = countChar(body, '\n');
  const crlf = newlines === 0 ? 0 : body.split('\r\n').length - 1;
  // Mixed files are rare; the majority decides so a mostly-CRLF file stays CRLF.
  const eol = crlf > 0 && crlf * 2 >= newlines ? '\r\n' : '\n';
  return { text, format: { bom, eol, finalNewline } };
}

/**
 * Turns edited LF text back into the file's own BOM, line endings and final-newline state. A caller
 * that knows whether `text` ends with a newline passes it: reading a string built by splicing
 * flattens it, which for a large file costs many times the edit itself.
 */
export function encodeText(text: string, format: TextFormat, endsWithNewline = text.endsWith('\n')): string {
  let body = text;
  if (format.finalNewline && body !== '' && !endsWithNewline) body += '\n';
  if (!format.finalNewline && endsWithNewline) body = body.slice(0, -1);
  if (format.eol === '\r\n') body = body.replace(/\n/g, '\r\n');
  return format.bom ? BOM + body : body;
}

/** Normalises CRLF line endings to LF. */
export function toLf(text: string): string {
  return text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
}

/** Counts occurrences of one character. */
export function countChar(text: string, char: string): number {
  let count = 0;
  for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) count++;
  return count;
}
