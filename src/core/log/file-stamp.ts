// The stamp types alone, so tool-events.ts and tool-spec.ts can name them without importing file-stamping.ts,
// which imports both of them.

/**
 * What a file tool saw in a file or left there, carried in its tool result: a later edit compares
 * the file's content hash with it to tell whether someone else changed the file since.
 */
export interface FileStamp {
  /** Absolute path, as the tools resolve it. */
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** SHA-256 of the file's bytes, hex. */
  readonly sha256: string;
}

/** A lookup of the last stamp of a file, as tools see it through their context. */
export type KnownFile = (absolutePath: string) => FileStamp | undefined;

/**
 * Earlier contents of files, named by their stamps' hashes: what the model read and what Smith
 * wrote, kept in the workspace's checkpoint store so that an edit of a file changed since can be
 * merged into it, also after a resume. Contents go when the task that named them is deleted.
 */
export interface FileVersions {
  /** Largest content kept, in bytes (the checkpoint store's file size limit). */
  readonly maxBytes: number;
  /** Keeps the bytes a stamp was taken of; bytes over `maxBytes`, or that are not the stamp's, are not kept. */
  keep(stamp: FileStamp, bytes: Uint8Array): void;
  /** The content with this SHA-256, or undefined when it was never kept or is gone. */
  bytesOf(sha256: string): Uint8Array | undefined;
}
