import { isBlank } from './line-normalisers.js';

// The shapes read_file-style outputs give line numbers: Roo's `12 | code`, `12: code`, and
// `cat -n`'s right-aligned `    12<TAB>code`. A numbered empty line may have lost its trailing space.
const PREFIX_FORMATS: readonly RegExp[] = [/^\s*\d+ ?\|(?: |$)/, /^\s*\d+:(?: |$)/, /^\s*\d+(?:\t|$)/];

/** The line-number prefix shape every non-blank line carries, or undefined when not uniformly numbered. */
export function lineNumberFormat(lines: readonly string[]): RegExp | undefined {
  const content = lines.filter((line) => !isBlank(line));
  if (content.length === 0) return undefined;
  const format = PREFIX_FORMATS.find((pattern) => content.every((line) => pattern.test(line)));
  // Lines that are nothing but numbers (a data file) are content, not prefixes.
  if (!format || content.every((line) => isBlank(line.replace(format, '')))) return undefined;
  return format;
}

/** Removes a line-number prefix of the given shape from every line. */
export function stripLineNumbers(lines: readonly string[], format: RegExp): string[] {
  return lines.map((line) => (isBlank(line) ? '' : line.replace(format, '')));
}
