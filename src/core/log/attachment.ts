// Named here, below context/ where mentions are expanded, because the log records what each message
// attached (task_started, user_message).

/** What one mention attached, as the log records it (so resume and rewind know exactly what was sent). */
export interface Attachment {
  readonly kind: 'file' | 'folder' | 'git-changes' | 'commit' | 'url' | 'problems' | 'terminal' | 'image';
  /** The path, URL or commit as written after the `@` (an image's file name). */
  readonly ref: string;
  /** SHA-256 of the text attached (an image's bytes). */
  readonly sha256: string;
  /** Characters attached, after any cut (an image's bytes). */
  readonly chars: number;
  readonly truncated: boolean;
}
