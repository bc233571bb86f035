import * as vscode from 'vscode';

/** The two documents of one edit review. */
export interface ReviewUris {
  readonly original: vscode.Uri;
  readonly proposal: vscode.Uri;
}

/**
 * The two sides of an edit review. The original is a read-only virtual document; the proposal
 * lives in an in-memory file system, so the user can edit (and even save) it without touching
 * the real file, which only the engine writes, after approval.
 */
export class ProposalDocuments implements vscode.Disposable {
  readonly originalScheme: string;
  readonly proposalScheme: string;
  private readonly originals = new OriginalContent();
  private readonly proposals = new InMemoryFiles();
  private readonly registrations: vscode.Disposable[];

  /** Registers `<prefix>-original` and `<prefix>-proposal`; tests use their own prefix. */
  constructor(prefix = 'smith') {
    this.originalScheme = `${prefix}-original`;
    this.proposalScheme = `${prefix}-proposal`;
    this.registrations = [
      vscode.workspace.registerTextDocumentContentProvider(this.originalScheme, this.originals),
      vscode.workspace.registerFileSystemProvider(this.proposalScheme, this.proposals, { isCaseSensitive: true }),
    ];
  }

  /** Creates both documents of review `id` for a file. */
  create(absolutePath: string, id: number, original: string, initialProposal: string): ReviewUris {
    // The query keeps each review's documents apart: VS Code caches documents by URI.
    const file = vscode.Uri.file(absolutePath);
    const uris = {
      original: file.with({ scheme: this.originalScheme, query: `review=${id}` }),
      proposal: file.with({ scheme: this.proposalScheme, query: `review=${id}` }),
    };
    this.originals.set(uris.original, original);
    this.proposals.put(uris.proposal, initialProposal);
    return uris;
  }

  /** Replaces the original side's text (the engine's reading may differ from the streamed guess). */
  setOriginal(uri: vscode.Uri, text: string): void {
    this.originals.set(uri, text);
  }

  /** Forgets a review's documents. */
  remove(uris: ReviewUris): void {
    this.originals.delete(uris.original);
    this.proposals.remove(uris.proposal);
  }

  dispose(): void {
    for (const registration of this.registrations) registration.dispose();
  }
}

class OriginalContent implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(uri: vscode.Uri, text: string): void {
    const key = uri.toString();
    const known = this.texts.has(key);
    if (known && this.texts.get(key) === text) return;
    this.texts.set(key, text);
    if (known) this.changed.fire(uri);
  }

  delete(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}

interface MemoryFile {
  readonly path: string;
  data: Uint8Array;
  readonly ctime: number;
  mtime: number;
}

/** A flat in-memory file system: files keyed by full URI; the folders above them exist implicitly. */
class InMemoryFiles implements vscode.FileSystemProvider {
  private readonly files = new Map<string, MemoryFile>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  put(uri: vscode.Uri, text: string): void {
    const now = Date.now();
    this.files.set(uri.toString(), { path: uri.path, data: new TextEncoder().encode(text), ctime: now, mtime: now });
  }

  remove(uri: vscode.Uri): void {
    if (this.files.delete(uri.toString())) this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  watch(): vscode.Disposable {
    // Changes come only from VS Code itself (saves), which knows about them already.
    return new vscode.Disposable(() => {});
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const file = this.files.get(uri.toString());
    if (file) return { type: vscode.FileType.File, ctime: file.ctime, mtime: file.mtime, size: file.data.byteLength };
    const folder = uri.path.endsWith('/') ? uri.path : `${uri.path}/`;
    if ([...this.files.values()].some((f) => f.path.startsWith(folder))) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {}

  readFile(uri: vscode.Uri): Uint8Array {
    const file = this.files.get(uri.toString());
    if (!file) throw vscode.FileSystemError.FileNotFound(uri);
    return file.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): void {
    const file = this.files.get(uri.toString());
    // Only the proposals Smith created exist; a "save as" into this scheme has nowhere to go.
    if (!file) throw options.create ? vscode.FileSystemError.NoPermissions(uri) : vscode.FileSystemError.FileNotFound(uri);
    file.data = content;
    file.mtime = Math.max(Date.now(), file.mtime + 1);
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  delete(uri: vscode.Uri): void {
    this.remove(uri);
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('Smith proposals cannot be renamed');
  }
}
