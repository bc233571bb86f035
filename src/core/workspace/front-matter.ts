import { parseYaml } from './yaml.js';

/** A Markdown file split into its YAML front matter and its body. */
interface FrontMatter {
  /** The front matter's fields; empty without front matter or when it is not a YAML mapping. */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly body: string;
  /** Why the front matter could not be read (it is then ignored). */
  readonly problem?: string;
  /** True when the file starts with a front matter block (even an unreadable one). */
  readonly present: boolean;
  /** The block's text between the `---` lines, for readers that know a file's own shapes (Cursor's unquoted globs). */
  readonly block?: string;
  /** True when the block holds YAML that is not a mapping (a bare word or a list): no field was read. */
  readonly notMapping?: boolean;
}

const BLOCK = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Splits `---\nyaml\n---\nbody`, as rules and command files of every agent write it. */
export function splitFrontMatter(text: string): FrontMatter {
  const match = BLOCK.exec(text);
  if (!match) return { fields: {}, body: text, present: false };
  const body = text.slice(match[0].length);
  const block = match[1] ?? '';
  let data: unknown;
  try {
    data = parseYaml(block);
  } catch (error) {
    return { fields: {}, body, present: true, block, problem: `front matter is not valid YAML (${(error as Error).message.split('\n')[0]})` };
  }
  const mapping = data !== null && typeof data === 'object' && !Array.isArray(data);
  const fields = mapping ? (data as Record<string, unknown>) : {};
  return { fields, body, present: true, block, ...(mapping || data === null || data === undefined ? {} : { notMapping: true }) };
}
