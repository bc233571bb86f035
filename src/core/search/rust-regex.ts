import { RipgrepError } from './ripgrep.js';

/**
 * Compiles a regex written for ripgrep (Rust syntax) as a JavaScript RegExp that matches one line
 * the same way, for the search that runs without ripgrep. What Rust refuses (look-around,
 * backreferences, a newline) is refused here with ripgrep's words; Rust-only spellings are
 * rewritten: leading `(?flags)`, `(?P<name>`, `\A` / `\z`, `\pL`, `[[:alpha:]]`, `\x{…}`, and
 * escaped punctuation that JavaScript's Unicode mode does not accept (`\#`, `\-` …).
 * A flag group anywhere but the start is refused: JavaScript (before Node 23) has none.
 */
export function compileRustRegex(pattern: string): RegExp {
  const { source, flags } = translate(pattern);
  try {
    return new RegExp(source, `${flags}u`);
  } catch (error) {
    throw parseError(pattern, (error as Error).message.replace(/^Invalid regular expression: \/.*\/\w*: /s, ''));
  }
}

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/** Characters that JavaScript accepts escaped in Unicode mode; '-' only inside a class. */
const JS_ESCAPABLE = new Set('^$\\.*+?()[]{}|/');

function translate(pattern: string): { source: string; flags: string } {
  let i = 0;
  let flags = '';
  let extended = false;
  const leading = /^\(\?([a-zA-Z-]+)\)/.exec(pattern);
  if (leading) {
    const [on = ''] = leading[1]!.split('-');
    if (on.includes('U')) throw parseError(pattern, 'swapping greedy and lazy (the U flag) is not supported without ripgrep');
    if (on.includes('i')) flags += 'i';
    if (on.includes('s')) flags += 's';
    extended = on.includes('x');
    i = leading[0].length;
  }
  let out = '';
  let classDepth = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\n') throw parseError(pattern, 'the literal \'"\\n"\' is not allowed in a regex');
    if (extended && classDepth === 0 && /\s/.test(c)) {
      i++;
      continue;
    }
    if (extended && classDepth === 0 && c === '#') {
      while (i < pattern.length && pattern[i] !== '\n') i++;
      continue;
    }
    if (c === '\\') {
      const [text, length] = translateEscape(pattern, i, classDepth > 0);
      out += text;
      i += length;
      continue;
    }
    if (classDepth > 0) {
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(i));
      if (posix && POSIX_CLASSES[posix[2]!] !== undefined) {
        if (posix[1]) throw parseError(pattern, 'a negated POSIX class is not supported without ripgrep');
        out += POSIX_CLASSES[posix[2]!];
        i += posix[0].length;
        continue;
      }
      if (c === '[') throw parseError(pattern, 'nested character classes are not supported without ripgrep');
      if (c === ']') classDepth--;
      out += c;
      i++;
      continue;
    }
    if (c === '[') {
      classDepth++;
      out += c;
      i++;
      // A ']' first in a class (after an optional '^') is a literal.
      if (pattern[i] === '^') out += pattern[i++];
      if (pattern[i] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const rest = pattern.slice(i + 2);
      if (/^(=|!|<=|<!)/.test(rest)) throw parseError(pattern, 'look-around, including look-ahead and look-behind, is not supported');
      if (rest.startsWith('P<')) {
        out += '(?<';
        i += 4;
        continue;
      }
      if (/^[a-zA-Z-]+[:)]/.test(rest)) throw parseError(pattern, 'flags are only supported at the start of the regex without ripgrep, as in (?i)word');
    }
    out += c;
    i++;
  }
  return { source: out, flags };
}

/** One escape at `pattern[at]` (a backslash): its JavaScript text and how many characters it took. */
function translateEscape(pattern: string, at: number, inClass: boolean): [string, number] {
  const next = pattern[at + 1];
  if (next === undefined) throw parseError(pattern, 'incomplete escape sequence, reached end of pattern prematurely');
  if (/[0-9]/.test(next)) throw parseError(pattern, 'backreferences are not supported');
  if (next === 'n') throw parseError(pattern, 'the literal \'"\\n"\' is not allowed in a regex');
  if (!inClass && next === 'A') return ['^', 2];
  if (!inClass && next === 'z') return ['$', 2];
  if ((next === 'p' || next === 'P') && pattern[at + 2] !== '{' && pattern[at + 2] !== undefined) return [`\\${next}{${pattern[at + 2]}}`, 3];
  if (next === 'x' && pattern[at + 2] === '{') {
    const end = pattern.indexOf('}', at + 3);
    if (end === -1) throw parseError(pattern, 'unclosed hexadecimal escape');
    return [`\\u{${pattern.slice(at + 3, end)}}`, end - at + 1];
  }
  if (/[!-/:-@[-`{-~]/.test(next) && !JS_ESCAPABLE.has(next) && !(inClass && next === '-')) return [next, 2];
  return [`\\${next}`, 2];
}

function parseError(pattern: string, reason: string): RipgrepError {
  return new RipgrepError(`regex parse error:\n    ${pattern}\nerror: ${reason}`, true);
}
