import { chmodSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { CommandPreview, PreviewReason } from '../../shared/command-preview-facts.js';
import { ignoredPaths } from '../process/command-sandbox.js';
import { findSandbox } from '../process/task-sandbox.js';
import { NOTHING_IGNORED, type IgnorePolicy } from '../workspace/ignore-policy.js';
import { compareTrees } from './preview-changes.js';
import { runPreviewCommand, type PreviewMounts } from './preview-sandbox.js';
import { reasonsFromOutput } from './preview-signs.js';
import { copyTree, entryOf, formatBytes, readTree, type Tree, TreeTooLargeError } from './preview-tree.js';
import { remoteEffects } from './remote-effects.js';
import { DEFAULT_PREVIEW_TIMEOUT_SECONDS } from './preview-timeout.js';

/** Copying and writing limits of a preview. */
export interface PreviewLimits {
  /** Paths in the workspace folder at most (default 200,000). */
  readonly maxEntries: number;
  /** Bytes of files in the workspace folder at most (default 2 GiB). */
  readonly maxBytes: number;
  /** What the command may write before it is stopped (default 512 MiB). */
  readonly maxWriteBytes: number;
}

const DEFAULT_LIMITS: PreviewLimits = { maxEntries: 200_000, maxBytes: 2 * 1024 ** 3, maxWriteBytes: 512 * 1024 ** 2 };

/** What to preview, and how. */
export interface PreviewOptions {
  readonly command: string;
  /** The folder the command runs in (inside `root`). */
  readonly cwd: string;
  /** The workspace folder the command gets a copy of. */
  readonly root: string;
  readonly timeoutSeconds?: number;
  /** Paths .smithignore hides: an empty folder or file in the copy, as the command sandbox does. */
  readonly ignore?: IgnorePolicy;
  /** Removes secrets from the output (the task's redactor). */
  readonly redact?: (text: string) => string;
  readonly limits?: Partial<PreviewLimits>;
  readonly signal?: AbortSignal;
  /** Where scratch folders go (default: the system's temp folder). */
  readonly scratchParent?: string;
  /** The sandbox to use (default: findSandbox, as commands do). */
  readonly sandbox?: { readonly bwrap: string; readonly filter: Buffer } | { readonly reason: string };
}

/** A finished preview: its facts, its files for a diff editor, and its scratch folder until disposed. */
export interface PreviewRun {
  readonly result: CommandPreview;
  /** The copy after the command ran (where Apply reads the new files), while not disposed. */
  readonly copy?: string;
  /** The files to show a path's two sides in a diff editor (an empty file for a missing side). */
  sides(path: string): { readonly before: string; readonly after: string };
  /** Removes the scratch folder. */
  dispose(): void;
}

/**
 * Runs a command on a copy of a workspace folder under bubblewrap, with no network, and reports
 * what it created, changed and deleted there. The real workspace is only read: the command sees
 * the copy where the folder is, everything else read-only, and throwaway /tmp, /var/tmp and
 * /dev/shm. A command known to act on other machines is not run. Without a working bubblewrap
 * nothing runs and `unavailable` says why.
 */
export async function previewCommand(options: PreviewOptions): Promise<PreviewRun> {
  const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_PREVIEW_TIMEOUT_SECONDS;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const root = realpathSync(options.root);
  const cwd = realpathSync(options.cwd);
  const base: Omit<CommandPreview, 'ran'> = {
    command: options.command,
    cwd,
    root,
    exitCode: null,
    timedOut: false,
    timeoutSeconds,
    output: '',
    outputTruncated: false,
    created: [],
    changed: [],
    deleted: [],
    outsideWrites: [],
    notPreviewable: [],
  };
  const nothing = (result: CommandPreview): PreviewRun => ({ result, sides: () => ({ before: '', after: '' }), dispose: () => {} });
  if (cwd !== root && !cwd.startsWith(root + sep)) throw new Error(`The command's folder ${cwd} is not inside the workspace folder ${root}.`);
  if (root === sep) return nothing({ ...base, ran: false, unavailable: 'the workspace folder is the root of the file system' });
  const sandbox = options.sandbox ?? (await findSandbox());
  if ('reason' in sandbox) return nothing({ ...base, ran: false, unavailable: sandbox.reason });
  const remote = await remoteEffects(options.command);
  if (remote.length > 0) {
    return nothing({ ...base, ran: false, notPreviewable: remote.map((detail) => ({ code: 'remote-effect', detail: `${detail}; not run` })) });
  }

  const scratch = mkdtempSync(join(options.scratchParent ?? tmpdir(), 'smith-preview-'));
  const mounts: PreviewMounts = {
    root,
    copy: join(scratch, 'workspace'),
    tmp: join(scratch, 'tmp'),
    varTmp: join(scratch, 'var-tmp'),
    shm: join(scratch, 'shm'),
  };
  const beforeDir = join(scratch, 'before');
  const empty = join(scratch, 'empty');
  const dispose = (): void => rmSync(scratch, { recursive: true, force: true });
  try {
    for (const folder of [mounts.copy, mounts.tmp, mounts.varTmp, mounts.shm, beforeDir]) mkdirSync(folder);
    chmodSync(mounts.tmp, 0o1777);
    chmodSync(mounts.varTmp, 0o1777);
    writeFileSync(empty, '');
    // The scratch folder itself, when the workspace holds it (a workspace in /tmp), is not copied.
    const skip = new Set<string>();
    const inside = relative(root, realpathSync(scratch));
    if (!inside.startsWith('..') && inside !== '') skip.add(inside.split(sep).join('/'));
    const hidden = ignoredPaths(root, options.ignore ?? NOTHING_IGNORED).map((h) => ({ ...h, rel: relative(root, h.path).split(sep).join('/') }));
    for (const h of hidden) skip.add(h.rel);
    let original: Tree;
    try {
      original = readTree(root, limits, skip);
    } catch (error) {
      if (!(error instanceof TreeTooLargeError)) throw error;
      dispose();
      return nothing({
        ...base,
        ran: false,
        notPreviewable: [{ code: 'too-large', detail: `the workspace folder is too large to copy for a preview (${error.message})` }],
      });
    }
    const copied = copyTree(root, original, mounts.copy);
    // .smithignore'd paths: empty stand-ins, watched for writes.
    for (const h of hidden) {
      const at = join(mounts.copy, h.rel);
      mkdirSync(join(at, '..'), { recursive: true });
      if (h.folder) mkdirSync(at, { recursive: true });
      else writeFileSync(at, '');
    }
    const standIns = new Map(hidden.map((h) => [h.rel, entryOf(lstatSync(join(mounts.copy, h.rel)))]));

    const end = await runPreviewCommand({
      bwrap: sandbox.bwrap,
      filter: sandbox.filter,
      mounts,
      command: options.command,
      cwd,
      timeoutMs: timeoutSeconds * 1000,
      maxWriteBytes: limits.maxWriteBytes,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (end.aborted) throw options.signal?.reason instanceof Error ? options.signal.reason : new Error('The preview was stopped.');
    const redact = options.redact ?? ((text: string) => text);
    const output = redact(end.output.render());
    const reasons: PreviewReason[] = [];
    if (end.timedOut) reasons.push({ code: 'timed-out', detail: `it did not end within ${timeoutSeconds} s and was stopped with everything it started` });
    if (end.overWritten !== undefined) reasons.push({ code: 'too-large', detail: `it wrote more than ${formatBytes(limits.maxWriteBytes)} and was stopped` });
    reasons.push(...reasonsFromOutput(output));

    let after: Tree;
    try {
      after = readTree(
        mounts.copy,
        { maxEntries: limits.maxEntries * 2, maxBytes: limits.maxBytes + limits.maxWriteBytes * 2 },
        new Set(hidden.map((h) => h.rel)),
      );
    } catch (error) {
      if (!(error instanceof TreeTooLargeError)) throw error;
      reasons.push({ code: 'too-large', detail: `it left too much in the workspace to compare (${error.message})` });
      return {
        result: { ...base, ran: true, exitCode: end.exitCode, timedOut: end.timedOut, output, outputTruncated: end.output.truncated, notPreviewable: reasons },
        sides: () => ({ before: empty, after: empty }),
        dispose,
      };
    }
    const changes = compareTrees({ root, copy: mounts.copy, beforeDir }, original, copied, after);
    reasons.push(...changes.reasons);
    for (const [rel, was] of standIns) {
      const now = lstatOrUndefined(join(mounts.copy, rel));
      const touched =
        !now || now.ctimeMs !== was.ctimeMs || now.ino !== was.ino || (was.kind === 'folder' && readTree(join(mounts.copy, rel), limits).size > 0);
      if (touched) reasons.push({ code: 'not-applicable', detail: `it wrote to ${rel}, which .smithignore hides (an empty stand-in during the preview)` });
    }
    const outsideWrites = leftOutside(mounts, root);
    if (outsideWrites.length > 0) {
      reasons.push({
        code: 'outside-write',
        detail: `it left files outside the workspace: ${outsideWrites.slice(0, 5).join(', ')}${outsideWrites.length > 5 ? ` and ${outsideWrites.length - 5} more` : ''}`,
      });
    }
    const result: CommandPreview = {
      ...base,
      ran: true,
      exitCode: end.exitCode,
      ...(end.signal ? { signal: end.signal } : {}),
      timedOut: end.timedOut,
      output,
      outputTruncated: end.output.truncated,
      created: changes.created,
      changed: changes.changed,
      deleted: changes.deleted,
      outsideWrites,
      notPreviewable: reasons,
    };
    return {
      result,
      copy: mounts.copy,
      sides: (path) => {
        const file = [...result.created, ...result.changed, ...result.deleted].find((f) => f.path === path);
        const plain = (kind: string | undefined): boolean => kind === 'file' || kind === 'exec';
        return {
          before: file && plain(file.before?.kind) ? join(beforeDir, path) : empty,
          after: file && plain(file.after?.kind) ? join(mounts.copy, path) : empty,
        };
      },
      dispose,
    };
  } catch (error) {
    dispose();
    throw error;
  }
}

/** What the command left in the throwaway /tmp, /var/tmp and /dev/shm (not the folders bubblewrap made to mount the copy on). */
function leftOutside(mounts: PreviewMounts, root: string): string[] {
  const found: string[] = [];
  const mountChain = new Set<string>();
  for (let at = root; at !== sep && at !== '.'; at = join(at, '..')) mountChain.add(at);
  for (const [folder, shown] of [
    [mounts.tmp, '/tmp'],
    [mounts.varTmp, '/var/tmp'],
    [mounts.shm, '/dev/shm'],
  ] as const) {
    let tree: Tree;
    try {
      tree = readTree(folder, { maxEntries: 10_000, maxBytes: Number.MAX_SAFE_INTEGER });
    } catch {
      found.push(`${shown} (more than 10,000 paths)`);
      continue;
    }
    for (const [rel, entry] of tree) {
      const path = `${shown}/${rel}`;
      if (mountChain.has(path)) continue;
      const hasChildren = [...tree.keys()].some((other) => other.startsWith(`${rel}/`));
      if (entry.kind !== 'folder' || !hasChildren) found.push(path);
    }
  }
  return found.sort();
}

function lstatOrUndefined(path: string): ReturnType<typeof entryOf> | undefined {
  try {
    return entryOf(lstatSync(path));
  } catch {
    return undefined;
  }
}
