import { resolve } from 'node:path';
import * as vscode from 'vscode';
import type { FileInfo, FileSystemPort, ReadChunksOptions } from '../../core/ports.js';
import { NodeFileSystem, READ_CHUNK_BYTES } from '../../core/workspace/node-file-system.js';

/** Called around the engine's writes (e.g. to note the diagnostics a file had before). */
interface WriteObserver {
  beforeWrite?(absolutePath: string): void;
  afterWrite?(absolutePath: string): void;
}

/**
 * The engine's files as the editor sees them: a file with unsaved changes is read from (and
 * written through) its editor, so the model works on what the user sees and no save conflicts
 * with an open editor. Every other file goes straight to disk, written atomically.
 */
export class VsCodeFileSystem implements FileSystemPort {
  private readonly disk = new NodeFileSystem();
  private readonly observers: WriteObserver[] = [];

  constructor(observer?: WriteObserver) {
    if (observer) this.observers.push(observer);
  }

  /** Adds an observer of the engine's writes. */
  observe(observer: WriteObserver): void {
    this.observers.push(observer);
  }

  async readFile(absolutePath: string): Promise<Uint8Array> {
    const document = dirtyDocument(absolutePath);
    return document ? new TextEncoder().encode(document.getText()) : this.disk.readFile(absolutePath);
  }

  async stat(absolutePath: string): Promise<FileInfo | undefined> {
    const info = await this.disk.stat(absolutePath);
    const document = dirtyDocument(absolutePath);
    if (!document || info?.type !== 'file') return info;
    return { ...info, size: new TextEncoder().encode(document.getText()).byteLength };
  }

  async *readChunks(absolutePath: string, options: ReadChunksOptions = {}): AsyncIterable<Uint8Array> {
    const document = dirtyDocument(absolutePath);
    if (!document) {
      yield* this.disk.readChunks(absolutePath, options);
      return;
    }
    // The editor holds the whole text already; only the hand-out is chunked, like the disk's.
    const bytes = new TextEncoder().encode(document.getText());
    const size = Math.max(1, options.chunkSize ?? READ_CHUNK_BYTES);
    for (let at = 0; at < bytes.byteLength; at += size) {
      options.signal?.throwIfAborted();
      yield bytes.subarray(at, at + size);
    }
  }

  async writeFileAtomic(absolutePath: string, data: string | Uint8Array): Promise<void> {
    for (const observer of this.observers) observer.beforeWrite?.(absolutePath);
    const document = dirtyDocument(absolutePath);
    if (document) await saveThrough(document, typeof data === 'string' ? data : new TextDecoder().decode(data));
    // Editors showing the file unmodified reload it from disk by themselves.
    else await this.disk.writeFileAtomic(absolutePath, data);
    for (const observer of this.observers) observer.afterWrite?.(absolutePath);
  }

  exists(absolutePath: string): Promise<boolean> {
    return this.disk.exists(absolutePath);
  }

  deleteFile(absolutePath: string): Promise<void> {
    return this.disk.deleteFile(absolutePath);
  }
}

async function saveThrough(document: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
  if (!(await vscode.workspace.applyEdit(edit)) || !(await document.save())) {
    throw new Error(`Could not save ${document.uri.fsPath} through its open editor.`);
  }
}

/** The open document of a file on disk when it has unsaved changes. */
function dirtyDocument(absolutePath: string): vscode.TextDocument | undefined {
  const wanted = resolve(absolutePath);
  return vscode.workspace.textDocuments.find((d) => d.isDirty && d.uri.scheme === 'file' && resolve(d.uri.fsPath) === wanted);
}
