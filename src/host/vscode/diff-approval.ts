import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { FileSystemPort } from '../../core/ports.js';
import { readWholeText } from '../../core/tool-kit/file-reading.js';
import { ProposalDocuments, type ReviewUris } from './proposal-documents.js';

/** A proposed edit as the engine describes it in an approval request. */
interface EditProposal {
  readonly original: string;
  readonly proposed: string;
  readonly isNewFile: boolean;
}

/** Tuning for DiffApproval. */
interface DiffApprovalOptions {
  /** Prefix of the two document schemes (default "smith"); tests use their own. */
  readonly schemePrefix?: string;
  /** Least time between two streamed updates of a proposal (default 60 ms). */
  readonly streamIntervalMs?: number;
}

/** What the user's approval changed: their own edits to the proposal, if any. */
interface AcceptedReview {
  readonly editedContent?: string;
}

interface Review {
  readonly id: number;
  readonly absolutePath: string;
  uris?: ReviewUris;
  document?: vscode.TextDocument;
  original: string;
  /** The final proposal, once the engine presented it; until then the review is a stream. */
  proposed?: string;
  /** Every change to the documents runs in this chain, in order. */
  queue: Promise<void>;
  pendingPartial?: string;
  flushTimer?: NodeJS.Timeout;
  lastFlush: number;
}

/**
 * Shows proposed edits in VS Code's diff editor: the original on the left (read-only), the
 * proposal on the right, streamed while the model writes it and editable by the user before
 * they approve. The real file is never touched here: the engine writes it after approval, with
 * the user's changes (reported as `editedContent`), so a rejection leaves it exactly as it was.
 */
export class DiffApproval implements vscode.Disposable {
  private readonly documents: ProposalDocuments;
  private readonly reviews = new Map<string, Review>();
  /** Files whose review was approved and that the engine is about to write. */
  private readonly approved = new Set<string>();
  private readonly intervalMs: number;
  private nextId = 1;

  constructor(
    private readonly files: FileSystemPort,
    options: DiffApprovalOptions = {},
  ) {
    this.documents = new ProposalDocuments(options.schemePrefix);
    this.intervalMs = options.streamIntervalMs ?? 60;
  }

  /** The scheme of the editable proposal documents. */
  get proposalScheme(): string {
    return this.documents.proposalScheme;
  }

  /** True while a review of the file is open. */
  isReviewing(absolutePath: string): boolean {
    return this.reviews.has(absolutePath);
  }

  /** The proposal document of the file's open review, once it is shown. */
  proposalDocument(absolutePath: string): vscode.TextDocument | undefined {
    return this.reviews.get(absolutePath)?.document;
  }

  /** Shows the growing content of a write_to_file call; opens the diff on the first call. */
  streamPartial(absolutePath: string, partialContent: string): void {
    const review = this.reviews.get(absolutePath) ?? this.open(absolutePath);
    if (review.proposed !== undefined) return;
    review.pendingPartial = partialContent;
    if (review.flushTimer) return;
    const wait = Math.max(0, review.lastFlush + this.intervalMs - Date.now());
    review.flushTimer = setTimeout(() => this.flush(review), wait);
  }

  /** Shows the final proposal (opening the diff if nothing was streamed) and waits until it is visible. */
  async present(absolutePath: string, proposal: EditProposal): Promise<void> {
    const review = this.reviews.get(absolutePath) ?? this.open(absolutePath, proposal);
    clearTimeout(review.flushTimer);
    review.flushTimer = undefined;
    review.pendingPartial = undefined;
    review.proposed = proposal.proposed;
    await this.enqueue(review, async () => {
      review.original = proposal.original;
      this.documents.setOriginal(review.uris!.original, proposal.original);
      await this.show(review, proposal.proposed);
      // Saved into the in-memory file system, so from here on "dirty" means "the user edited it".
      if (review.document!.isDirty) await review.document!.save();
    });
  }

  /** Closes the review after approval; returns the user's version when they changed the proposal. */
  async accept(absolutePath: string): Promise<AcceptedReview> {
    const review = this.reviews.get(absolutePath);
    if (!review) return {};
    await review.queue;
    const proposed = review.proposed ?? '';
    const shown = review.document?.getText() ?? proposed;
    await this.close(review);
    this.approved.add(absolutePath);
    if (normalizeEol(shown) === normalizeEol(proposed)) return {};
    return { editedContent: withEolOf(shown, proposed) };
  }

  /** After the engine wrote an approved file, shows it in place of the closed diff (without taking focus). */
  async revealWritten(absolutePath: string): Promise<void> {
    if (!this.approved.delete(absolutePath)) return;
    await Promise.resolve(vscode.window.showTextDocument(vscode.Uri.file(absolutePath), { preview: true, preserveFocus: true })).catch(() => undefined);
  }

  /** Closes the review after a rejection; nothing was written, so nothing needs restoring. */
  async reject(absolutePath: string): Promise<void> {
    const review = this.reviews.get(absolutePath);
    if (review) await this.close(review);
  }

  /** Closes streamed reviews that never reached approval (auto-approved or failed calls); all of them with `all`. */
  async discard(options: { readonly all?: boolean } = {}): Promise<void> {
    const stale = [...this.reviews.values()].filter((review) => options.all || review.proposed === undefined);
    await Promise.all(stale.map((review) => this.close(review)));
  }

  dispose(): void {
    void this.discard({ all: true }).finally(() => this.documents.dispose());
  }

  private open(absolutePath: string, proposal?: EditProposal): Review {
    const review: Review = { id: this.nextId++, absolutePath, original: proposal?.original ?? '', queue: Promise.resolve(), lastFlush: 0 };
    this.reviews.set(absolutePath, review);
    void this.enqueue(review, async () => {
      if (!proposal) review.original = await this.readCurrent(absolutePath);
      const isNewFile = proposal?.isNewFile ?? (await this.files.stat(absolutePath)) === undefined;
      review.uris = this.documents.create(absolutePath, review.id, review.original, proposal?.proposed ?? review.original);
      const name = basename(absolutePath);
      const title = isNewFile ? `${name}: New File (Editable)` : `${name}: Original ↔ Smith's Changes (Editable)`;
      await vscode.commands.executeCommand('vscode.diff', review.uris.original, review.uris.proposal, title, { preview: false, preserveFocus: true });
      review.document = await vscode.workspace.openTextDocument(review.uris.proposal);
    });
    return review;
  }

  private flush(review: Review): void {
    review.flushTimer = undefined;
    const partial = review.pendingPartial;
    review.pendingPartial = undefined;
    if (partial === undefined || review.proposed !== undefined) return;
    review.lastFlush = Date.now();
    void this.enqueue(review, async () => {
      if (review.proposed !== undefined) return;
      const line = await this.show(review, streamedView(partial, review.original));
      this.reveal(review, line);
    });
  }

  /** Puts `text` into the proposal document, replacing only what changed; returns the first changed line. */
  private async show(review: Review, text: string): Promise<number> {
    const document = review.document!;
    const target = text.replace(/\r?\n/g, document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
    const current = document.getText();
    if (current === target) return 0;
    let start = 0;
    const max = Math.min(current.length, target.length);
    while (start < max && current.charCodeAt(start) === target.charCodeAt(start)) start++;
    if (start > 0 && current[start - 1] === '\r') start--;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(document.positionAt(start), document.positionAt(current.length)), target.slice(start));
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not show the proposed edit of ${review.absolutePath}.`);
    return document.positionAt(start).line;
  }

  private reveal(review: Review, line: number): void {
    const uri = review.uris?.proposal.toString();
    const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri);
    editor?.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private async close(review: Review): Promise<void> {
    if (this.reviews.get(review.absolutePath) === review) this.reviews.delete(review.absolutePath);
    clearTimeout(review.flushTimer);
    review.pendingPartial = undefined;
    await review.queue;
    const { uris, document } = review;
    if (!uris) return;
    // A dirty tab would ask "save changes?" when closed; the proposal's file system takes the save.
    if (document?.isDirty) await Promise.resolve(document.save()).catch(() => false);
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => isReviewTab(tab, uris.proposal));
    if (tabs.length > 0) await Promise.resolve(vscode.window.tabGroups.close(tabs, true)).catch(() => false);
    this.documents.remove(uris);
  }

  /** The file's text for the left side while a write streams; nothing for what the engine will refuse (pipes, binary, huge). */
  private async readCurrent(absolutePath: string): Promise<string> {
    const info = await this.files.stat(absolutePath);
    if (info?.type !== 'file') return '';
    const whole = await readWholeText(this.files, absolutePath, info);
    return whole.kind === 'text' ? whole.text : '';
  }

  private enqueue(review: Review, step: () => Promise<void>): Promise<void> {
    // A failed step must not wedge the review: later steps (and close) still run.
    const next = review.queue.then(step);
    review.queue = next.catch(() => undefined);
    return next;
  }
}

/** While streaming: the complete lines written so far, then the original's remaining lines. */
function streamedView(partial: string, original: string): string {
  const written = partial.slice(0, partial.lastIndexOf('\n') + 1);
  const writtenLines = written.split('\n').length - 1;
  const originalLines = original.split(/(?<=\n)/);
  return written + originalLines.slice(writtenLines).join('');
}

function isReviewTab(tab: vscode.Tab, proposal: vscode.Uri): boolean {
  const input = tab.input;
  const key = proposal.toString();
  if (input instanceof vscode.TabInputTextDiff) return input.modified.toString() === key;
  if (input instanceof vscode.TabInputText) return input.uri.toString() === key;
  return false;
}

function normalizeEol(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/** The user's text with the proposal's line endings (the editor may have normalised them). */
function withEolOf(text: string, proposal: string): string {
  const crlf = /\r\n/.test(proposal) && !/(^|[^\r])\n/.test(proposal);
  const lf = normalizeEol(text);
  return crlf ? lf.replace(/\n/g, '\r\n') : lf;
}
