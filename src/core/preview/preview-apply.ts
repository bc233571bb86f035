import { lstatSync, mkdirSync, readFileSync, readlinkSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { deleteFileAt, fileState, inspectPath, writeFileAt } from '../checkpoints/link-safe-files.js';
import type { CommandPreview, PreviewFile } from '../../shared/command-preview-facts.js';

/** Raised when a preview cannot be applied; nothing was written. */
export class PreviewNotAppliedError extends Error {}

/** What Apply wrote. */
export interface AppliedPreview {
  readonly written: readonly string[];
  readonly deleted: readonly string[];
}

type Side = NonNullable<PreviewFile['before']>;

/**
 * Writes exactly what a preview's command did to the copy into the real workspace folder, as a
 * checkpoint restore writes (link-safe-files.ts: never through a link, real folders on the way),
 * so the step's checkpoint records it and a rewind takes it back. Refused, before anything is
 * written, when the preview does not show everything (a reason), or when a path it changed is no
 * longer as it was when previewed, or the copy's file is not what was reported.
 */
export function applyPreview(preview: CommandPreview, copy: string): AppliedPreview {
  if (preview.unavailable !== undefined || !preview.ran) throw new PreviewNotAppliedError('The command was not previewed, so there is nothing to apply.');
  if (preview.notPreviewable.length > 0) {
    throw new PreviewNotAppliedError(`The preview does not show everything the command would do: ${preview.notPreviewable.map((r) => r.detail).join('; ')}`);
  }
  const root = preview.root;
  const stale: string[] = [];
  for (const file of [...preview.changed, ...preview.deleted]) if (inspectPath(root, file.path).state !== stateOf(file.before)) stale.push(file.path);
  for (const file of preview.created) if (inspectPath(root, file.path).state !== 'missing') stale.push(file.path);
  for (const file of [...preview.created, ...preview.changed])
    if (inspectPath(copy, file.path).state !== stateOf(file.after)) stale.push(`${file.path} (in the preview's copy)`);
  if (stale.length > 0) {
    throw new PreviewNotAppliedError(
      `These paths changed since the preview, so it was not applied: ${stale.slice(0, 10).join(', ')}${stale.length > 10 ? ` and ${stale.length - 10} more` : ''}`,
    );
  }
  const written: string[] = [];
  const deleted: string[] = [];
  // Deepest first, so a folder is empty when its turn comes.
  for (const file of [...preview.deleted].sort((a, b) => b.path.length - a.path.length)) {
    if (file.before?.kind === 'folder') {
      if (inspectPath(root, file.path, false).state === 'folder') rmdirSync(join(root, file.path));
    } else deleteFileAt(root, file.path);
    deleted.push(file.path);
  }
  for (const file of [...preview.created, ...preview.changed].sort((a, b) => a.path.length - b.path.length)) {
    const after = file.after as Side;
    if (after.kind === 'folder') {
      makeFolder(root, file.path);
    } else if (after.kind === 'link') {
      writeFileAt(root, file.path, Buffer.from(readlinkSync(join(copy, file.path)), 'utf8'), 'link');
    } else {
      writeFileAt(root, file.path, readFileSync(join(copy, file.path)), after.kind === 'exec' ? 'exec' : 'file');
    }
    written.push(file.path);
  }
  return { written, deleted };
}

/** The comparable state (link-safe-files' inspectPath) a side stands for. */
function stateOf(side: Side | undefined): string {
  if (!side) return 'missing';
  if (side.kind === 'folder') return 'folder';
  if (side.kind === 'other' || side.hash === undefined) return 'other';
  return fileState(side.kind, side.hash);
}

/** Makes a folder, each part on the way a real folder (never through a link). */
function makeFolder(root: string, rel: string): void {
  const parts = rel.split('/');
  let absolute = root;
  for (const part of parts) {
    absolute = join(absolute, part);
    const stats = lstatSync(absolute, { throwIfNoEntry: false });
    if (stats?.isDirectory()) continue;
    if (stats) throw new PreviewNotAppliedError(`${rel}: ${part} is not a folder`);
    mkdirSync(absolute);
  }
}
