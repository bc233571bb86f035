// What a command preview found: the command run on a copy of the workspace, without network, and
// the files it would create, change or delete there. The schemas are the one definition: the core
// builds these facts, the event log keeps their summary, the panel and the CLI render them.
import * as z from './zod-config.js';
import type { DeepReadonly } from './deep-readonly.js';

/** Why a preview does not show all of a command's effects, or why its result cannot be applied as it is. */
export const PREVIEW_REASON_CODES = [
  /** The command is known to act on other machines (git push, npm publish, ssh, curl -X POST …): not run. */
  'remote-effect',
  /** It failed for want of the network, which a preview does not have. */
  'network',
  /** It wrote (or tried to write) outside the workspace. */
  'outside-write',
  /** It did not end within the preview's time limit and was killed. */
  'timed-out',
  /** It wrote more than the preview allows, or the workspace is too large to copy. */
  'too-large',
  /** It changed something Apply cannot write exactly: a link, a FIFO, a file's mode, a path .smithignore hides, the git folder. */
  'not-applicable',
  /** The workspace changed while the preview ran. */
  'workspace-changed',
] as const;
export type PreviewReasonCode = (typeof PREVIEW_REASON_CODES)[number];

const previewReasonSchema = z.object({ code: z.enum(PREVIEW_REASON_CODES), detail: z.string() });
export type PreviewReason = DeepReadonly<z.infer<typeof previewReasonSchema>>;

/** One side of a changed path: what it was, or is after the command. */
const previewSideSchema = z.object({
  kind: z.enum(['file', 'exec', 'link', 'folder', 'other']),
  size: z.number(),
  /** Content hash of a file or a link's target text (checkpoint hashing); absent for folders. */
  hash: z.optional(z.string()),
});

/** A path the command created, changed or deleted, relative to the workspace folder ('/'-separated). */
const previewFileSchema = z.object({
  path: z.string(),
  before: z.optional(previewSideSchema),
  after: z.optional(previewSideSchema),
  /** Either side is not UTF-8 text. */
  binary: z.boolean(),
  /** A unified diff of a text file (absent for binary, huge or non-file paths, or past the patch budget). */
  patch: z.optional(z.string()),
  added: z.number(),
  removed: z.number(),
});
export type PreviewFile = DeepReadonly<z.infer<typeof previewFileSchema>>;

/** Everything a preview found. */
export const commandPreviewSchema = z.object({
  command: z.string(),
  /** The folder the command ran in, and the workspace folder it ran on a copy of. */
  cwd: z.string(),
  root: z.string(),
  /** Set when no preview could be made at all (no bubblewrap, no user namespaces …); nothing ran. */
  unavailable: z.optional(z.string()),
  /** False when the command was not run (unavailable, or a remote effect). */
  ran: z.boolean(),
  exitCode: z.nullable(z.number()),
  signal: z.optional(z.string()),
  timedOut: z.boolean(),
  timeoutSeconds: z.number(),
  /** Its output, as a command's output is kept for the model (bounded, secrets redacted). */
  output: z.string(),
  outputTruncated: z.boolean(),
  created: z.array(previewFileSchema),
  changed: z.array(previewFileSchema),
  deleted: z.array(previewFileSchema),
  /** Files the command left in /tmp, /var/tmp or /dev/shm (the preview's own, thrown away). */
  outsideWrites: z.array(z.string()),
  /** Why the preview does not show everything a real run would do; Apply is refused when there is one. */
  notPreviewable: z.array(previewReasonSchema),
});
export type CommandPreview = DeepReadonly<z.infer<typeof commandPreviewSchema>>;

/** The preview's summary as the event log keeps it (`command_previewed`): counts and paths, no contents. */
export const previewSummarySchema = z.object({
  command: z.string(),
  unavailable: z.optional(z.string()),
  ran: z.boolean(),
  exitCode: z.nullable(z.number()),
  timedOut: z.boolean(),
  created: z.array(z.string()),
  changed: z.array(z.string()),
  deleted: z.array(z.string()),
  added: z.number(),
  removed: z.number(),
  notPreviewable: z.array(previewReasonSchema),
});
export type PreviewSummary = DeepReadonly<z.infer<typeof previewSummarySchema>>;

/** A command approval's preview as the panel shows it: offered, running, or its summary and whether Apply may write it. */
export const approvalPreviewSchema = z.object({
  running: z.boolean(),
  summary: z.optional(previewSummarySchema),
  /** Lines added and removed per path, for the summary's lines. */
  counts: z.optional(z.record(z.string(), z.object({ added: z.number(), removed: z.number() }))),
  /** True when Apply may write the previewed changes (the preview ran and shows everything). */
  applicable: z.boolean(),
  /** Why the preview could not be made (it failed to start, or was stopped). */
  error: z.optional(z.string()),
});
export type ApprovalPreview = DeepReadonly<z.infer<typeof approvalPreviewSchema>>;

/** Whether Apply may write a preview's changes: it ran, and nothing keeps it from showing all the command would do. */
export function previewApplicable(preview: CommandPreview): boolean {
  return preview.ran && preview.unavailable === undefined && preview.notPreviewable.length === 0;
}

/** The summary the log keeps of a preview. */
export function summarizePreview(preview: CommandPreview): PreviewSummary {
  const files = [...preview.created, ...preview.changed, ...preview.deleted];
  return {
    command: preview.command,
    ...(preview.unavailable !== undefined ? { unavailable: preview.unavailable } : {}),
    ran: preview.ran,
    exitCode: preview.exitCode,
    timedOut: preview.timedOut,
    created: preview.created.map((f) => f.path),
    changed: preview.changed.map((f) => f.path),
    deleted: preview.deleted.map((f) => f.path),
    added: files.reduce((sum, f) => sum + f.added, 0),
    removed: files.reduce((sum, f) => sum + f.removed, 0),
    notPreviewable: [...preview.notPreviewable],
  };
}

/** One line per changed path and one per reason: what the CLI prints and the panel shows above its buttons. */
export function previewSummaryLines(summary: PreviewSummary, counts?: ReadonlyMap<string, { added: number; removed: number }>): string[] {
  if (summary.unavailable !== undefined) return [`Preview unavailable: ${summary.unavailable}`];
  const lines: string[] = [];
  const stat = (path: string): string => {
    const c = counts?.get(path);
    return c ? ` (+${c.added} -${c.removed})` : '';
  };
  for (const path of summary.created) lines.push(`created  ${path}${stat(path)}`);
  for (const path of summary.changed) lines.push(`changed  ${path}${stat(path)}`);
  for (const path of summary.deleted) lines.push(`deleted  ${path}${stat(path)}`);
  const total = summary.created.length + summary.changed.length + summary.deleted.length;
  const head = summary.ran
    ? `${summary.created.length} created, ${summary.changed.length} changed, ${summary.deleted.length} deleted (+${summary.added} -${summary.removed} lines); ${
        summary.timedOut ? 'timed out' : `exit code ${summary.exitCode ?? 'none'}`
      }`
    : 'not run';
  return [
    total === 0 && summary.ran ? `No file changes; ${summary.timedOut ? 'timed out' : `exit code ${summary.exitCode ?? 'none'}`}` : head,
    ...lines,
    ...summary.notPreviewable.map((r) => `not previewable (${r.code}): ${r.detail}`),
  ];
}
