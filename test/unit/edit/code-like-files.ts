// Deterministic generators for the closest-region quality test: TypeScript-like files whose
// functions share a vocabulary (so many regions look alike, as in real code), and SEARCH texts
// copied from one region with the mistakes models make.

/** mulberry32: a small seeded generator, so every case can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'item order user count total value index result error data list map key name id config request response handler cache ' +
  'state event message buffer options entry node path file line text size limit offset page query filter token session ' +
  'account price amount status code time date range score rate level mode type kind source target parent child group ' +
  'batch queue task job worker stream chunk record field column row table schema model view store client server route ' +
  'header body payload context scope frame layer shape point vector matrix color style theme label title summary detail ' +
  'invoice customer product vendor ledger balance credit debit refund coupon discount shipment carrier region zone'
).split(' ');
const METHODS = 'get set add remove find load save update fetch parse format build create delete apply resolve merge push has'.split(' ');
const TYPE_WORDS = 'Order User Item Config Request Response Cache Session Account Invoice Product Record Schema Task Event Store Client Route'.split(' ');

/** Picks from a list with a skew toward its start, as word use in code is skewed. */
function skewed<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(list.length * random() ** 2)]!;
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(list.length * random())]!;
}

function capitalise(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1);
}

function identifier(random: () => number): string {
  const parts = [skewed(random, WORDS)];
  if (random() < 0.6) parts.push(capitalise(skewed(random, WORDS)));
  if (random() < 0.15) parts.push(capitalise(skewed(random, WORDS)));
  return parts.join('');
}

function typeName(random: () => number): string {
  return pick(random, TYPE_WORDS) + (random() < 0.5 ? capitalise(skewed(random, WORDS)) : '');
}

function literal(random: () => number): string {
  const roll = random();
  if (roll < 0.4) return String(Math.floor(random() < 0.8 ? random() * 100 : random() * 100_000));
  if (roll < 0.75) return `'${skewed(random, WORDS)}${random() < 0.5 ? `-${skewed(random, WORDS)}` : ''}'`;
  return pick(random, ['true', 'false', 'null', 'undefined', '[]', '{}']);
}

/** The names one function works with: real functions reuse a few names over and over. */
interface Scope {
  readonly locals: string[];
}

function expression(random: () => number, scope: Scope): string {
  const local = () => pick(random, scope.locals);
  const args = () => Array.from({ length: Math.floor(random() * 3) }, () => (random() < 0.6 ? local() : literal(random))).join(', ');
  switch (Math.floor(random() * 9)) {
    case 0:
      return local();
    case 1:
      return `${local()}.${skewed(random, WORDS)}`;
    case 2:
      return `${pick(random, METHODS)}${capitalise(skewed(random, WORDS))}(${args()})`;
    case 3:
      return `${local()}.${pick(random, METHODS)}(${args()})`;
    case 4:
      return `await ${local()}.${pick(random, METHODS)}${capitalise(skewed(random, WORDS))}(${args()})`;
    case 5:
      return `${local()} ${pick(random, ['+', '-', '*', '??', '||'])} ${literal(random)}`;
    case 6:
      return `new ${typeName(random)}(${args()})`;
    case 7:
      return `{ ${skewed(random, WORDS)}: ${local()}, ${skewed(random, WORDS)}: ${literal(random)} }`;
    default:
      return literal(random);
  }
}

function condition(random: () => number, scope: Scope): string {
  const local = pick(random, scope.locals);
  return pick(random, [
    `!${local}`,
    `${local} === ${literal(random)}`,
    `${local}.length > ${Math.floor(random() * 10)}`,
    `${local} < ${local}Limit`,
    `${local}.${pick(random, METHODS)}(${literal(random)})`,
  ]);
}

/** One statement, or a block opener that `body` closes. */
function statement(random: () => number, scope: Scope): { line: string; opens: boolean } {
  const local = () => pick(random, scope.locals);
  const roll = random();
  if (roll < 0.2) return { line: `const ${identifier(random)} = ${expression(random, scope)};`, opens: false };
  if (roll < 0.3) return { line: `${local()} = ${expression(random, scope)};`, opens: false };
  if (roll < 0.45) return { line: `${local()}.${pick(random, METHODS)}(${expression(random, scope)});`, opens: false };
  if (roll < 0.55) return { line: `if (${condition(random, scope)}) {`, opens: true };
  if (roll < 0.6) return { line: `for (const ${skewed(random, WORDS)} of ${local()}) {`, opens: true };
  if (roll < 0.68) return { line: `return ${expression(random, scope)};`, opens: false };
  if (roll < 0.75) return { line: `// ${Array.from({ length: 3 + Math.floor(random() * 6) }, () => skewed(random, WORDS)).join(' ')}`, opens: false };
  if (roll < 0.8) return { line: `throw new ${typeName(random)}Error('${skewed(random, WORDS)} ${skewed(random, WORDS)}');`, opens: false };
  if (roll < 0.88)
    return { line: `logger.${pick(random, ['info', 'warn', 'debug'])}('${skewed(random, WORDS)}', { ${skewed(random, WORDS)}: ${local()} });`, opens: false };
  return { line: `await ${local()}.${pick(random, METHODS)}${capitalise(skewed(random, WORDS))}(${expression(random, scope)});`, opens: false };
}

/** A statement line at some nesting depth, for SEARCH texts that gain a line. */
export function inventedLine(random: () => number, indent: string): string {
  const scope = { locals: [identifier(random), identifier(random)] };
  return indent + statement(random, scope).line;
}

function functionLines(random: () => number, out: string[]): void {
  const scope: Scope = { locals: Array.from({ length: 2 + Math.floor(random() * 4) }, () => identifier(random)) };
  const [first, second] = scope.locals;
  out.push(
    `export ${random() < 0.5 ? 'async ' : ''}function ${pick(random, METHODS)}${capitalise(identifier(random))}(${first}: ${typeName(random)}, ${second}: ${typeName(random)}): ${typeName(random)} {`,
  );
  let depth = 1;
  const statements = 3 + Math.floor(random() * 25);
  for (let i = 0; i < statements; i++) {
    if (depth > 1 && random() < 0.2) {
      depth--;
      out.push(`${'  '.repeat(depth)}}${random() < 0.2 ? ' else {' : ''}`);
      if (out.at(-1)!.endsWith('{')) depth++;
      continue;
    }
    if (random() < 0.06) out.push('');
    const { line, opens } = statement(random, scope);
    out.push('  '.repeat(depth) + line);
    if (opens && depth < 5) depth++;
    else if (opens) out.push(`${'  '.repeat(depth)}}`);
  }
  while (depth > 0) out.push(`${'  '.repeat(--depth)}}`);
  out.push('');
}

/** A file of about `lineCount` lines: imports, then functions separated by blank lines. */
export function codeLikeFile(random: () => number, lineCount: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < 6; i++) out.push(`import { ${typeName(random)}, ${identifier(random)} } from './${skewed(random, WORDS)}-${skewed(random, WORDS)}.js';`);
  out.push('');
  while (out.length < lineCount) functionLines(random, out);
  return out.slice(0, lineCount);
}

/** The mistakes a SEARCH may carry; each makes it differ from the lines it was copied from. */
export const MISTAKES = ['renamed identifier', 'changed literal', 'missing line', 'extra line', 'changed indentation'] as const;
export type Mistake = (typeof MISTAKES)[number];

const KEYWORDS = new Set('const let return await async function export import from new throw for of if else true false null undefined logger'.split(' '));

/** Applies one mistake to SEARCH lines in place; false when the lines offer nothing to change that way. */
export function applyMistake(random: () => number, search: string[], mistake: Mistake): boolean {
  switch (mistake) {
    case 'renamed identifier': {
      const names = [...new Set(search.join('\n').match(/[A-Za-z_$][\w$]{2,}/g) ?? [])].filter((name) => !KEYWORDS.has(name));
      if (names.length === 0) return false;
      const name = pick(random, names);
      const renamed = pick(random, [
        `${name}s`,
        name.slice(0, -1),
        `${name}${capitalise(skewed(random, WORDS))}`,
        `${skewed(random, WORDS)}${capitalise(name)}`,
      ]);
      const whole = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
      for (let i = 0; i < search.length; i++) search[i] = search[i]!.replace(whole, renamed);
      return true;
    }
    case 'changed literal': {
      const at = search.flatMap((line, index) => (/\b\d+\b|'[^']*'/.test(line) ? [index] : []));
      if (at.length === 0) return false;
      const index = pick(random, at);
      search[index] = search[index]!.replace(/\b\d+\b|'[^']*'/, (found) =>
        found.startsWith("'") ? `'${skewed(random, WORDS)} ${skewed(random, WORDS)}'` : String(Number(found) + 1 + Math.floor(random() * 50)),
      );
      return true;
    }
    case 'missing line': {
      if (search.length < 3) return false;
      search.splice(Math.floor(random() * search.length), 1);
      return true;
    }
    case 'extra line': {
      const at = Math.floor(random() * (search.length + 1));
      const indent = /^\s*/.exec(search[Math.min(at, search.length - 1)]!)![0];
      search.splice(at, 0, inventedLine(random, indent));
      return true;
    }
    case 'changed indentation': {
      // One line shifted against its neighbours: the nesting no longer follows the file's.
      const index = Math.floor(random() * search.length);
      if (search[index]!.trim() === '') return false;
      search[index] = (random() < 0.5 ? '   ' : '\t') + search[index]!;
      return true;
    }
  }
}
