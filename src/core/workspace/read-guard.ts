// What keeps a file's content from the model when the user's Read rules deny it or ask first.
// The rules are judged in src/core/permissions/read-rule-guard.ts; every place that puts file content
// in front of the model (search, outlines, mentions, rules and command files, edits) asks this
// port, which lives here so the lower layers can take one without knowing the rules.

/** Why a file's content may not reach the model unasked: the Read rule that denies it or asks first. */
interface ReadRefusal {
  readonly effect: 'deny' | 'ask';
  /** The rule as written, e.g. `Read(.env)`. */
  readonly rule: string;
  /** Where the rule came from (`--deny`, a settings file). */
  readonly source: string;
}

/** Judges, file by file, whether content may be shown to the model. */
export interface ReadGuard {
  /** False when no rule could withhold a file from `tool`: callers skip the work of judging. */
  covers(tool?: string): boolean;
  /**
   * Why the content of `path` (absolute, or as the model or user wrote it) may not be shown by
   * `tool` (default `read_file`), judged as the permission rules judge a call on that path
   * (symbolic links, `..`, other workspace folders); undefined when nothing withholds it.
   */
  refusal(path: string, tool?: string): ReadRefusal | undefined;
}

/** `denied by Read(.env)`, or for an ask rule what the model can do instead. */
export function refusalReason(refusal: ReadRefusal): string {
  return refusal.effect === 'deny' ? `denied by ${refusal.rule}` : `${refusal.rule} asks the user first; read it with read_file to be asked`;
}

/** A file held back, as named to the model. */
export interface WithheldFile {
  readonly display: string;
  readonly refusal: ReadRefusal;
}

/** Withheld files named at most in one note; the rest are counted. */
const MAX_NAMED_WITHHELD = 20;

/**
 * The note that names what was held back, e.g. `[1 file withheld by the user's Read rules:
 * .env (denied by Read(.env)).]`; '' when nothing was.
 */
export function withheldNote(files: readonly WithheldFile[]): string {
  if (files.length === 0) return '';
  const named = files.slice(0, MAX_NAMED_WITHHELD).map((f) => `${f.display} (${refusalReason(f.refusal)})`);
  const more = files.length > MAX_NAMED_WITHHELD ? `, and ${files.length - MAX_NAMED_WITHHELD} more` : '';
  return `[${files.length} file${files.length === 1 ? '' : 's'} withheld by the user's Read rules: ${named.join(', ')}${more}.]`;
}
