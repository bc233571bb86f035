// A shortcut for judging names against ignore rules. A walk judges every name of the workspace;
// nearly all of them match no rule, and the `ignore` package's test costs microseconds a name
// (and remembers every path it was asked about). A rule that matches a name by the name alone
// (no slash inside the pattern) can only match names that end with the pattern's literal tail,
// the characters after its last wildcard or escape. A name that ends with no rule's tail matches
// no rule, so the package need not be asked.

/** The literal tails of a set's rules, by their last character; undefined when a rule has none (the set is always asked). */
export type RuleEndings = ReadonlyMap<string, readonly string[]>;

/** Characters after which a pattern's tail is no longer plain text, or no longer within the name (a slash). */
const NOT_LITERAL = ['*', '?', '[', ']', '\\', '/'];

/**
 * The tails of the rules in `text` (an ignore file's lines), or undefined when some rule's tail
 * cannot be told: one ending in a wildcard, a class, an escape or whitespace (git trims trailing
 * spaces unless escaped, so where the pattern ends is not plain), or one that is only slashes.
 * Blank lines and comments are no rules. Lines are split as the `ignore` package splits them.
 */
export function ruleEndings(text: string): RuleEndings | undefined {
  const byLast = new Map<string, string[]>();
  const lines = (text.endsWith('\r') ? text.slice(0, -1) : text).split(/\r?\n/);
  for (const line of lines) {
    // A byte-order mark may or may not be read as part of the line (the package drops it at the
    // text's start): the line is taken both ways at once, the way that asks the package more. So
    // a "#" after one does not make a comment, and a "!" after one is a negation.
    const bom = line.startsWith('\uFEFF');
    const rule = bom ? line.slice(1) : line;
    if (!bom && (line === '' || line.startsWith('#'))) continue;
    if (/\s$/.test(line)) return undefined;
    // A trailing slash limits a rule to folders; the name tested carries no slash of its own.
    const body = (rule.startsWith('!') ? rule.slice(1) : rule).replace(/\/+$/, '');
    const cut = Math.max(...NOT_LITERAL.map((mark) => body.lastIndexOf(mark)));
    // A byte-order mark opening a file may or may not count as part of its first pattern: left out, the tail asks less.
    const tail = body.slice(cut + 1).replace(/^\uFEFF/, '');
    if (tail === '') return undefined;
    const last = tail[tail.length - 1] as string;
    const list = byLast.get(last);
    if (list) list.push(tail);
    else byLast.set(last, [tail]);
  }
  return byLast;
}

/** False only when `name` can match none of the rules `endings` describes. */
export function mayMatchName(endings: RuleEndings, name: string): boolean {
  const list = endings.get(name[name.length - 1] as string);
  if (!list) return false;
  for (const tail of list) if (name.endsWith(tail)) return true;
  return false;
}
