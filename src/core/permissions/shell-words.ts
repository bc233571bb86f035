import type { Node } from 'web-tree-sitter';

/** One word of a command as the shell passes it to the program, after quote removal. */
export interface ShellWord {
  /** The word's text after quote removal and escape processing; an expansion keeps its source text (`$HOME`). */
  readonly value: string;
  /**
   * False when the shell computes the word when it runs: an expansion or substitution, a glob
   * (`*`, `?`, `[`) or a brace pattern (`{a,b}`) outside quotes. Such a word may become any text,
   * several words or none.
   */
  readonly literal: boolean;
}

/** A word known as written (a rule's word, a word a wrapper adds). */
export function literalWord(value: string): ShellWord {
  return { value, literal: true };
}

/** A word the shell or a program fills in when it runs (xargs' input, find's `{}`). */
export function computedWord(value: string): ShellWord {
  return { value, literal: false };
}

/**
 * The words of nodes that follow one another in a command (its name, then its arguments). Nodes
 * with nothing or only line continuations (`\` newline) between them are one word, as the shell
 * reads `r\⏎m` as `rm` and `$"…"` as one word.
 */
export function wordsOf(nodes: readonly Node[], source: string): ShellWord[] {
  const words: ShellWord[] = [];
  let previous: Node | undefined;
  for (const node of nodes) {
    const word = wordOf(node);
    const gap = previous ? source.slice(previous.endIndex, node.startIndex) : undefined;
    if (gap !== undefined && /^(?:\\\r?\n)*$/.test(gap) && words.length > 0) {
      const last = words.pop()!;
      // `$"text"`: the `$` of a translated string adds nothing.
      const joined =
        last.literal && last.value === '$' && node.type === 'string' ? word : { value: last.value + word.value, literal: last.literal && word.literal };
      words.push(joined);
    } else {
      words.push(word);
    }
    previous = node;
  }
  return words;
}

/** One word node (a word, a quoted string, a concatenation, an expansion …) as the shell passes it on. */
function wordOf(node: Node): ShellWord {
  const parts = partsOf(node);
  const value = parts.map((part) => part.text).join('');
  const computed = parts.some((part) => part.kind === 'computed');
  // Globs and brace patterns count only outside quotes and escapes; quoted text is masked out.
  const unquoted = parts.map((part) => (part.kind === 'unquoted' ? part.text : '\0'.repeat(part.text.length))).join('');
  const pattern = /[*?[]/.test(unquoted) || /\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(unquoted.replace(/\0/g, 'x'));
  return { value, literal: !computed && !pattern };
}

interface WordPart {
  readonly text: string;
  readonly kind: 'unquoted' | 'quoted' | 'computed';
}

const COMPUTED = new Set(['simple_expansion', 'expansion', 'command_substitution', 'process_substitution', 'arithmetic_expansion', 'brace_expression']);

function partsOf(node: Node): WordPart[] {
  // A bare token the grammar leaves unnamed (the `$` of `$"…"`, a lone `$`) is plain text.
  if (!node.isNamed) return unquotedParts(node.text);
  switch (node.type) {
    case 'word':
    case 'number':
      return unquotedParts(node.text);
    case 'raw_string':
      return [{ text: node.text.slice(1, -1), kind: 'quoted' }];
    case 'ansi_c_string':
      return [{ text: ansiC(node.text.slice(2, -1)), kind: 'quoted' }];
    case 'translated_string':
      // `$"…"`: a double-quoted string looked up in a message catalogue, which Smith never has.
      return node.namedChildren.flatMap((child) => (child ? partsOf(child) : []));
    case 'string': {
      const parts: WordPart[] = [];
      for (const child of node.children) {
        if (!child) continue;
        if (child.type === 'string_content') parts.push({ text: doubleQuoted(child.text), kind: 'quoted' });
        else if (COMPUTED.has(child.type) || child.isNamed) parts.push({ text: child.text, kind: 'computed' });
        else if (child.type !== '"') parts.push({ text: child.text, kind: 'quoted' });
      }
      return parts;
    }
    case 'concatenation':
      return node.children.flatMap((child) => (child ? partsOf(child) : []));
    default:
      // Anything else the shell works out when it runs: an expansion, a substitution, a pattern.
      return [{ text: node.text, kind: 'computed' }];
  }
}

/** An unquoted word: a backslash quotes the next character; a backslash-newline is removed. */
function unquotedParts(text: string): WordPart[] {
  const parts: WordPart[] = [];
  let plain = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char !== '\\') {
      plain += char;
      continue;
    }
    if (plain) parts.push({ text: plain, kind: 'unquoted' });
    plain = '';
    const next = text[i + 1];
    i++;
    if (next === undefined || next === '\n') continue;
    if (next === '\r' && text[i + 1] === '\n') {
      i++;
      continue;
    }
    parts.push({ text: next, kind: 'quoted' });
  }
  if (plain) parts.push({ text: plain, kind: 'unquoted' });
  return parts;
}

/** Inside double quotes a backslash quotes only `$`, `` ` ``, `"`, `\` and a newline (removed). */
function doubleQuoted(text: string): string {
  return text.replace(/\\(\r?\n|[$`"\\])/g, (_, char: string) => (char.endsWith('\n') ? '' : char));
}

const ANSI_C: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** The body of `$'…'` with its C escapes decoded (`\x72` is `r`, `\162` is `r`, `\u0072` is `r`). */
function ansiC(body: string): string {
  return body.replace(
    /\\(?:([abeEfnrtv\\'"?])|([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|c(.)|(.))/gs,
    (whole, simple: string, octal: string, hex: string, u4: string, u8: string, control: string, other: string) => {
      if (simple) return ANSI_C[simple]!;
      if (octal) return String.fromCharCode(parseInt(octal, 8) & 0xff);
      if (hex) return String.fromCharCode(parseInt(hex, 16));
      const code = u4 ?? u8;
      if (code) {
        const point = parseInt(code, 16);
        return point <= 0x10ffff ? String.fromCodePoint(point) : whole;
      }
      if (control) return String.fromCharCode(control.toUpperCase().charCodeAt(0) ^ 0x40);
      return `\\${other}`;
    },
  );
}

/** Words as one line a rule is matched against and a person reads: quoted where the shell would need it. */
export function renderWords(words: readonly ShellWord[]): string {
  return words.map(renderWord).join(' ');
}

function renderWord(word: ShellWord): string {
  if (!word.literal) return /\s/.test(word.value) ? `"${word.value}"` : word.value;
  if (word.value !== '' && /^[\w@%+=:,./~^-]+$/.test(word.value)) return word.value;
  return `'${word.value.replace(/'/g, `'\\''`)}'`;
}
