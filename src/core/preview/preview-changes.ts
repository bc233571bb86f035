import { createHash } from 'node:crypto';
import { closeSync, constants, copyFileSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, readlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { contentHash } from '../checkpoints/object-store.js';
import { decodeText, diffStats, unifiedDiff } from '../tool-kit/file-text.js';
import type { PreviewFile, PreviewReason } from '../../shared/command-preview-facts.js';
import { entryOf, type Tree, type TreeEntry } from './preview-tree.js';

/** Texts larger than this get no patch (counts only). */
const MAX_PATCHED_FILE_BYTES = 1024 * 1024;
/** All patches of one preview together, at most. */
const MAX_PATCH_CHARS = 2 * 1024 * 1024;

/** Where the changed paths live: the real workspace folder, the copy the command ran on, and a folder for the "before" sides. */
export interface ChangeSources {
  readonly root: string;
  readonly copy: string;
  readonly beforeDir: string;
}

/** What the command did to the copy, path by path, and what keeps the result from being applied exactly. */
export interface Changes {
  readonly created: PreviewFile[];
  readonly changed: PreviewFile[];
  readonly deleted: PreviewFile[];
  readonly reasons: PreviewReason[];
}

type Side = NonNullable<PreviewFile['before']>;

/**
 * Compares the workspace as copied (`original`: the real files when copied; `copied`: the copy
 * just after copying) with the copy after the command (`after`). A path whose inode, size, mode
 * or change time moved is read on both sides and compared byte by byte; the real file is read
 * only if it still has the inode and times it had when copied (else the workspace changed
 * during the preview, which is reported). Folders are reported only when nothing reported lies
 * inside them.
 */
export function compareTrees(sources: ChangeSources, original: Tree, copied: Tree, after: Tree): Changes {
  const created: PreviewFile[] = [];
  const changed: PreviewFile[] = [];
  const deleted: PreviewFile[] = [];
  const reasons: PreviewReason[] = [];
  const budget = { chars: MAX_PATCH_CHARS };
  const notApplicable = (detail: string): void => void reasons.push({ code: 'not-applicable', detail });

  for (const [path, entry] of after) {
    const was = copied.get(path);
    if (was && !moved(was, entry)) continue;
    const beforeSide = was ? realSide(sources, path, original.get(path) as TreeEntry, reasons) : undefined;
    if (was && beforeSide === null) continue;
    const afterSide = sideOf(join(sources.copy, path), entry);
    if (beforeSide && sameSide(beforeSide, afterSide)) continue;
    if (beforeSide && beforeSide.kind === 'folder' && afterSide.kind === 'folder') continue;
    const file = describe(sources, path, beforeSide ?? undefined, afterSide, budget);
    (beforeSide ? changed : created).push(file);
  }
  for (const [path, entry] of copied) {
    if (after.has(path)) continue;
    const beforeSide = realSide(sources, path, original.get(path) as TreeEntry, reasons);
    if (beforeSide === null) continue;
    deleted.push(describe(sources, path, beforeSide ?? sideOf(join(sources.copy, path), entry), undefined, budget));
  }
  const shown = [created, changed, deleted].map((list) => withoutCoveredFolders(list).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)));
  for (const file of shown.flat()) {
    const kinds = [file.before?.kind, file.after?.kind];
    if (file.path === '.git' || file.path.startsWith('.git/')) notApplicable(`${file.path} is in the git folder, which Apply does not write`);
    else if (kinds.includes('other')) notApplicable(`${file.path} is not a file, folder or link (a FIFO, socket or device)`);
    else if (file.before?.kind === 'folder' && file.after && file.after.kind !== 'folder') notApplicable(`${file.path}: a folder became a file or link`);
  }
  return { created: shown[0]!, changed: shown[1]!, deleted: shown[2]!, reasons: collapse(reasons) };
}

/** Reads a side of the copy, without following links. */
function sideOf(absolute: string, entry: TreeEntry): Side {
  if (entry.kind === 'folder') return { kind: 'folder', size: 0 };
  if (entry.kind === 'other') return { kind: 'other', size: entry.size };
  if (entry.kind === 'link') return { kind: 'link', size: entry.size, hash: contentHash(Buffer.from(readlinkSync(absolute), 'utf8')) };
  return { kind: entry.kind, size: entry.size, hash: hashFile(absolute) };
}

/** The content hash of a file read in chunks, so a large file is never held whole. */
function hashFile(absolute: string): string {
  const hash = createHash('sha256');
  const fd = openSync(absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const chunk = Buffer.alloc(1024 * 1024);
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) hash.update(chunk.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** The real path's side as it was copied, or null when it changed (or vanished) since, which is reported. */
function realSide(sources: ChangeSources, path: string, original: TreeEntry, reasons: PreviewReason[]): Side | null {
  const absolute = join(sources.root, path);
  let now: TreeEntry;
  try {
    now = entryOf(lstatSync(absolute));
  } catch {
    reasons.push({ code: 'workspace-changed', detail: `${path} was removed from the workspace while the preview ran` });
    return null;
  }
  if (moved(original, now)) {
    reasons.push({ code: 'workspace-changed', detail: `${path} changed in the workspace while the preview ran` });
    return null;
  }
  return sideOf(absolute, now);
}

function moved(a: TreeEntry, b: TreeEntry): boolean {
  return a.kind !== b.kind || a.ino !== b.ino || a.size !== b.size || a.mode !== b.mode || a.mtimeMs !== b.mtimeMs || a.ctimeMs !== b.ctimeMs;
}

function sameSide(a: Side, b: Side): boolean {
  return a.kind === b.kind && a.hash === b.hash && a.size === b.size;
}

/** The reported file: counts and a patch for text files, and a copy of the before side for the diff editor. */
function describe(sources: ChangeSources, path: string, before: Side | undefined, after: Side | undefined, budget: { chars: number }): PreviewFile {
  const plain = (side: Side | undefined): boolean => side === undefined || side.kind === 'file' || side.kind === 'exec';
  const base = { path, ...(before ? { before } : {}), ...(after ? { after } : {}) };
  if (!plain(before) || !plain(after)) return { ...base, binary: false, added: 0, removed: 0 };
  if ((before?.size ?? 0) > MAX_PATCHED_FILE_BYTES || (after?.size ?? 0) > MAX_PATCHED_FILE_BYTES) {
    if (before) copyFileSync(join(sources.root, path), beforePath(sources.beforeDir, path));
    return { ...base, binary: false, added: 0, removed: 0 };
  }
  const beforeBytes = before ? readFileSync(join(sources.root, path)) : Buffer.alloc(0);
  if (before) keepBefore(sources.beforeDir, path, beforeBytes);
  const afterBytes = after ? readFileSync(join(sources.copy, path)) : Buffer.alloc(0);
  const beforeText = decodeText(beforeBytes);
  const afterText = decodeText(afterBytes);
  if (!('text' in beforeText) || !('text' in afterText)) return { ...base, binary: true, added: 0, removed: 0 };
  const patch = unifiedDiff(path, beforeText.text, afterText.text);
  const stats = diffStats(patch);
  const kept = patch.length <= budget.chars;
  if (kept) budget.chars -= patch.length;
  return { ...base, binary: false, ...(kept ? { patch } : {}), added: stats.added, removed: stats.removed };
}

/** The before side in a folder of its own, so a diff editor shows it even after the real file changes. */
function keepBefore(beforeDir: string, path: string, bytes: Buffer): void {
  writeFileSync(beforePath(beforeDir, path), bytes);
}

function beforePath(beforeDir: string, path: string): string {
  const target = join(beforeDir, path);
  mkdirSync(dirname(target), { recursive: true });
  return target;
}

/** Folders with a reported path inside them are left out: `rm -rf build` lists build's files, not build too. */
function withoutCoveredFolders(files: PreviewFile[]): PreviewFile[] {
  const paths = files.map((f) => f.path);
  return files.filter((file) => {
    const folder = (file.after ?? file.before)?.kind === 'folder';
    return !folder || !paths.some((p) => p.startsWith(`${file.path}/`));
  });
}

/** At most a few reasons of each code, then a count. */
function collapse(reasons: PreviewReason[]): PreviewReason[] {
  const out: PreviewReason[] = [];
  const counts = new Map<string, number>();
  for (const reason of reasons) {
    const count = (counts.get(reason.code) ?? 0) + 1;
    counts.set(reason.code, count);
    if (count <= 5) out.push(reason);
  }
  for (const [code, count] of counts) {
    if (count > 5) out.push({ code: code as PreviewReason['code'], detail: `and ${count - 5} more like it` });
  }
  return out;
}
