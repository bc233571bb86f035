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
