import type { FileInfo, FileSystemPort } from '../ports.js';
import { TextChunkDecoder } from './file-text.js';
import { ContentHash, type FileStamp } from './file-stamping.js';

/** Largest file the edit tools load (an edit needs the whole text in memory). */
const MAX_EDIT_BYTES = 16 * 1024 * 1024;

/** Why a path cannot be used as a file, in words for the model; undefined for a regular file. */
export function notAFileMessage(info: FileInfo, display: string): string | undefined {
  switch (info.type) {
    case 'file':
      return undefined;
    case 'directory':
      return `${display} is a directory, not a file. Use list_files to see what it contains.`;
    case 'fifo':
      return `${display} is a named pipe (FIFO), not a regular file. File tools do not read or write pipes: reading one waits for a writer that may never come.`;
    case 'socket':
      return `${display} is a socket, not a regular file. File tools only work on regular files.`;
    case 'device':
      return `${display} is a device, not a regular file. File tools only work on regular files.`;
    default:
      return `${display} is not a regular file. File tools only work on regular files.`;
  }
}

/** A whole file read for editing. */
type WholeText =
  | { readonly kind: 'text'; readonly text: string; readonly stamp: FileStamp }
  | { readonly kind: 'binary' }
  | { readonly kind: 'too_large'; readonly size: number };

/**
 * Reads a regular file whole as UTF-8 text with its stamp, chunk by chunk: a binary file is
 * known from its first bytes and not read further, and more than `maxBytes` is never loaded.
 */
export async function readWholeText(
  files: FileSystemPort,
  absolutePath: string,
  info: FileInfo,
  options: { readonly signal?: AbortSignal; readonly maxBytes?: number } = {},
): Promise<WholeText> {
  const maxBytes = options.maxBytes ?? MAX_EDIT_BYTES;
  if (info.size > maxBytes) return { kind: 'too_large', size: info.size };
  const decoder = new TextChunkDecoder();
  const hash = new ContentHash();
  const parts: string[] = [];
  for await (const chunk of files.readChunks(absolutePath, options.signal ? { signal: options.signal } : {})) {
    hash.update(chunk);
    // The file may have grown since it was looked at.
    if (hash.size > maxBytes) return { kind: 'too_large', size: hash.size };
    const text = decoder.push(chunk);
    if (text === undefined) return { kind: 'binary' };
    parts.push(text);
  }
  const rest = decoder.end();
  if (rest === undefined) return { kind: 'binary' };
  parts.push(rest);
  return { kind: 'text', text: parts.join(''), stamp: hash.stamp(absolutePath, info.mtimeMs) };
}

/** The model's message for a file too large to edit. */
export function tooLargeToEditMessage(display: string, size: number, tool: string): string {
  const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${display} is too large for ${tool} (${mb(size)}; the limit is ${mb(MAX_EDIT_BYTES)}). Change it with execute_command instead (for example sed), or split it into smaller files.`;
}
