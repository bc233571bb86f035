/** The outcome of applying one replace_in_file diff to a file's text. */
export type EditResult = EditApplied | EditFailed;

export interface EditApplied {
  readonly ok: true;
  /** The new file text, with the original line endings, BOM and final newline kept. */
  readonly content: string;
  /** Per block, how it matched (e.g. 'exact', 'trailing-whitespace', 'indentation'). */
  readonly strategies: readonly string[];
}

export interface EditFailed {
  readonly ok: false;
  /** A message for the model: which block failed, why, and the closest region of the file. */
  readonly error: string;
  /** 0-based index of the failing block, when a block (not the diff's syntax) failed. */
  readonly blockIndex?: number;
}
