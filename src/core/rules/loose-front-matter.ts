// Cursor writes `.mdc` front matter that is not YAML (`globs: **/*.py`: a YAML alias, an error) and
// reads it line by line. This reader does the same, so such a rule keeps its conditions.

/** Fields read line by line: a scalar as its raw text, `key:` followed by `- item` lines as a list. */
interface LooseFields {
  readonly fields: Readonly<Record<string, string | readonly string[]>>;
  /** Lines that fit no shape, as `line N ("text")`. */
  readonly unreadable: readonly string[];
}

const FIELD = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*))?$/;
const ITEM = /^[ \t]*-(?:[ \t]+(.*))?$/;

/** Reads `key: value` lines, `- item` lines under an empty `key:`, and indented continuations. */
export function readLooseFields(block: string): LooseFields {
  const fields: Record<string, string | string[]> = {};
  const unreadable: string[] = [];
  let current: string | undefined;
  block.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const field = FIELD.exec(line);
    if (field) {
      const key = field[1] as string;
      const value = (field[2] ?? '').trim();
      current = key;
      // A repeated key adds to the first, so no glob line is lost.
      const before = fields[key];
      if (value === '') fields[key] = Array.isArray(before) ? before : typeof before === 'string' && before !== '' ? [before] : [];
      else if (Array.isArray(before)) before.push(value);
      else fields[key] = typeof before === 'string' && before !== '' ? [before, value] : value;
      return;
    }
    const item = ITEM.exec(line);
    const value = current === undefined ? undefined : fields[current];
    if (item && Array.isArray(value)) {
      value.push(unquote((item[1] ?? '').trim()));
      return;
    }
    // An indented line continues a scalar (a folded description).
    if (current !== undefined && typeof value === 'string' && /^[ \t]/.test(line)) {
      fields[current] = `${value} ${line.trim()}`;
      return;
    }
    unreadable.push(`line ${index + 1} ("${line.trim().slice(0, 60)}")`);
  });
  return { fields, unreadable };
}

/** The text inside matching quotes, or the text itself. */
export function unquote(text: string): string {
  const match = /^(["'])(.*)\1$/.exec(text);
  return match ? (match[2] as string) : text;
}
