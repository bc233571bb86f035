/** Which paths the tools must not touch (the workspace's .smithignore). */
export interface IgnorePolicy {
  /** True when the path is excluded; paths outside the workspace are never ignored by this policy. */
  isIgnored(absolutePath: string): boolean;
  /** The file the rules come from, named in messages to the model. */
  readonly source: string;
}

/** A policy that ignores nothing (no .smithignore). */
export const NOTHING_IGNORED: IgnorePolicy = { isIgnored: () => false, source: '.smithignore' };
