/** A function that maps a line to the form two lines are compared in. */
export type LineNormaliser = (line: string) => string;

/** Compares lines ignoring trailing whitespace. */
export const trimEndNormaliser: LineNormaliser = (line) => line.trimEnd();

/** Compares lines ignoring leading and trailing whitespace. */
export const trimNormaliser: LineNormaliser = (line) => line.trim();

/** Compares lines ignoring surrounding whitespace and typographic punctuation. */
export const punctuationNormaliser: LineNormaliser = (line) => normalisePunctuation(line).trim();

// Most lines have no run to collapse; testing first avoids building a new string for each.
const INNER_RUN = /[ \t][ \t]|\t/;

/** As punctuationNormaliser, and a run of spaces or tabs inside the line counts as one space. */
export const innerWhitespaceNormaliser: LineNormaliser = (line) => {
  const normalised = punctuationNormaliser(line);
  return INNER_RUN.test(normalised) ? normalised.replace(/[ \t]+/g, ' ') : normalised;
};

// Models (and text copied through chat UIs) turn ASCII punctuation into typographic forms.
const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032\u02BC]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033]/g;
const DASHES = /[\u2010-\u2015\u2212]/g;
const SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g;

/** Any character that normalisePunctuation rewrites. */
export const TYPOGRAPHIC_CHAR =
  /[\u2018\u2019\u201A\u201B\u2032\u02BC\u201C\u201D\u201E\u201F\u2033\u2010-\u2015\u2212\u00A0\u2000-\u200A\u202F\u205F\u3000\u200B-\u200D\u2060\uFEFF\u2026]/g;

/** Maps smart quotes, typographic dashes, odd spaces and ellipses to their ASCII forms. */
export function normalisePunctuation(text: string): string {
  // Fast path: plain ASCII lines, by far the most common, need no regex work.
  if (!/[^\x00-\x7F]/.test(text)) return text;
  return text
    .replace(SINGLE_QUOTES, "'")
    .replace(DOUBLE_QUOTES, '"')
    .replace(DASHES, '-')
    .replace(SPACES, ' ')
    .replace(ZERO_WIDTH, '')
    .replace(/\u2026/g, '...');
}

/** True for an empty or whitespace-only line. */
export function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** The run of spaces and tabs a line starts with. */
export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}
