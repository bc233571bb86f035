import { isWrapper } from './command-wrappers.js';
import { commandBasename } from './wrapper-options.js';
import { parseRule } from './rule-syntax.js';
import type { CommandLine, ShellCommand } from './shell-commands.js';
import { literalWord, renderWords, type ShellWord } from './shell-words.js';

/** A rule as this file needs it (permission-rules.ts's PermissionRule, without importing it back). */
interface CommandRule {
  readonly effect: 'allow' | 'ask' | 'deny';
  readonly rule: string;
}

/** The Bash rules' verdict on a command line, with the command that matched or why the line is opaque. */
type CommandVerdict<R extends CommandRule> = { readonly effect: R['effect']; readonly rule: R; readonly reason?: string; readonly opaque?: true } | undefined;

/** Whether a command matches a rule: surely, perhaps (a word the rule looks at is computed), or not. */
type CommandMatch = 'yes' | 'maybe' | 'no';

/**
 * The verdict of the Bash rules on a command line: deny or ask when any command it runs matches
 * such a rule; asked (`opaque`) when one exists and the line cannot be judged for sure or a
 * computed word may make a command match; allow only when every command matches an allow rule
 * and nothing in the line is opaque or writes a file.
 */
export function judgeCommandLine<R extends CommandRule>(rules: readonly R[], line: CommandLine): CommandVerdict<R> {
  const patternOf = (rule: R) => parseRule(rule.rule).pattern;
  let unsure: CommandVerdict<R>;
  for (const effect of ['deny', 'ask'] as const) {
    for (const rule of rules.filter((r) => r.effect === effect)) {
      const pattern = patternOf(rule);
      if (!pattern) return { effect, rule, reason: 'the rule covers every command' };
      for (const command of line.commands) {
        const match = matchCommandRule(pattern, command, effect);
        if (match === 'yes') return { effect, rule, reason: `the line runs ${describeCommand(command)}` };
        if (unsure) continue;
        if (match === 'maybe')
          unsure = { effect: 'ask', rule, opaque: true, reason: `${describeCommand(command)} has a computed word, so it may be a command the rule names` };
        const possible = match === 'no' ? possibleMatch(pattern, command) : undefined;
        if (possible) unsure = { effect: 'ask', rule, opaque: true, reason: `${describeCommand(command)} ${possible}, so it may run what the rule names` };
      }
    }
  }
  const guarding = rules.find((r) => r.effect !== 'allow');
  if (guarding && line.opaque.length > 0) {
    const reason = `the line cannot be judged for sure: ${line.opaque.join('; ')}`;
    return { effect: 'ask', rule: unsure?.rule ?? guarding, opaque: true, reason: unsure ? `${reason}; and ${unsure.reason}` : reason };
  }
  if (unsure) return unsure;
  const allows = rules.filter((r) => r.effect === 'allow');
  if (allows.length === 0 || line.opaque.length > 0 || line.unallowable.length > 0 || line.commands.length === 0) return undefined;
  const allowed = (rule: R, command: ShellCommand) => {
    const pattern = patternOf(rule);
    return !pattern || matchCommandRule(pattern, command, 'allow') === 'yes';
  };
  const deciding = line.commands.map((command) => allows.find((rule) => allowed(rule, command)));
  return deciding.every(Boolean) ? { effect: 'allow', rule: deciding[0]! } : undefined;
}

/**
 * Matches a Bash rule's pattern (`npm test`, `git diff:*`, `npm run *`) against one command the
 * line runs, as its normalised text. A deny or ask rule judges every word of the command (a
 * wrapper with what it runs) and names the program by basename, so `Bash(rm:*)` holds for
 * `/bin/rm` and `Bash(/bin/rm:*)` for `rm`; it matches "maybe" when a computed word could supply
 * what the rule names (`git $X` for `Bash(git push:*)`). An allow rule judges a wrapper's own
 * words only (what it runs is judged on its own) and the program name exactly as written, so
 * `Bash(git:*)` does not allow `./git`.
 */
function matchCommandRule(pattern: string, command: ShellCommand, effect: 'allow' | 'ask' | 'deny'): CommandMatch {
  if (effect === 'allow') return textMatches(pattern, renderWords(command.own ?? command.words)) ? 'yes' : 'no';
  const patterns = [pattern, basenamed(pattern)];
  const texts = forms(command.words);
  if (patterns.some((p) => texts.some((text) => textMatches(p, text)))) return 'yes';
  const computed = command.words.findIndex((word) => !word.literal);
  if (computed < 0) return 'no';
  const known = forms(command.words.slice(0, computed)).map((text) => `${text} `);
  const starts = patterns.map((p) => normalise(p).replace(/:\*$/, '').split('*')[0]!);
  return starts.some((start) => start === '' || known.some((text) => start.startsWith(text) || text.startsWith(`${start} `))) ? 'maybe' : 'no';
}

/** A command as a deny rule sees it: as written, with its program's basename, and that in lower case (case-insensitive file systems). */
function forms(words: ShellCommand['words']): string[] {
  const name = words[0];
  if (!name) return [''];
  const base = commandBasename(name.value);
  const rest = words.slice(1);
  return [...new Set([renderWords(words), renderWords([literalWord(base), ...rest]), renderWords([literalWord(base.toLowerCase()), ...rest])])];
}

/** The pattern with its first word's folder left out (`/bin/rm:*` → `rm:*`). */
function basenamed(pattern: string): string {
  const text = normalise(pattern);
  const space = text.search(/ |:\*$/);
  const first = space < 0 ? text : text.slice(0, space);
  return first.includes('/') && !first.includes('*') ? commandBasename(first) + text.slice(first.length) : text;
}

function normalise(pattern: string): string {
  return pattern.replace(/\s+/g, ' ').trim();
}

/** `npm test` exactly, `git diff:*` (the words, then anything), or a glob with `*`. */
function textMatches(pattern: string, command: string): boolean {
  const normalised = normalise(pattern);
  if (normalised.endsWith(':*')) {
    const prefix = normalised.slice(0, -2);
    return command === prefix || command.startsWith(`${prefix} `);
  }
  if (!normalised.includes('*')) return command === normalised;
  const regex = new RegExp(
    `^${normalised
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's',
  );
  return regex.test(command);
}

// A deny or ask rule's second look at a command it does not match word for word: the program's
// own options may stand between the rule's words, or a program Smith does not know as a wrapper
// may run the named program. Such a command is asked, never denied outright: the match is only possible.

/**
 * Programs that print, search or look up their arguments and never run one as a program, so a
 * word naming a denied program there is only text (`echo rm`, `grep rm`, `which rm`).
 */
const NEVER_RUN_ARGUMENTS = new Set([
  'echo',
  'printf',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'which',
  'type',
  'whereis',
  'whatis',
  'apropos',
  'man',
  'info',
  'help',
  'test',
  '[',
  'true',
  'false',
  ':',
]);

/**
 * Why `command` may run what `pattern` names although its words do not match it, or undefined:
 * - options skipped: the rule's words after the program follow the program once option-looking
 *   words (`-C`, `--git-dir=.git`) and a value after each of them are left out, only before the
 *   command's first word that is neither (so `git log --grep push` is not `git push`);
 * - the program named as an argument: a word after the program, or the value of a `--opt=WORD`,
 *   names the rule's program by basename, maybe with `@VERSION` (`strace rm x`, `npx rm@1`), unless
 *   the program only prints or searches its arguments (echo, grep …) or is a wrapper Smith reads
 *   (command-wrappers.ts), whose commands are judged themselves.
 */
function possibleMatch(pattern: string, command: ShellCommand): string | undefined {
  const words = command.words;
  const name = words[0];
  if (!name || words.length < 2) return undefined;
  const ruleWords = pattern.replace(/:\*$/, '').trim().split(/\s+/);
  const program = ruleWords[0] ?? '';
  if (program === '' || program.includes('*')) return undefined;
  const wanted = commandBasename(program).toLowerCase();
  const base = commandBasename(name.value).toLowerCase();
  if (base === wanted && ruleWords.length > 1) {
    const rest = normalised(pattern.trim(), program);
    for (const tail of afterOptions(words)) {
      const text = renderWords([literalWord(wanted), ...tail]);
      if (textMatches(rest, text)) return `has options before ${renderWords(tail.slice(0, ruleWords.length - 1))}`;
    }
  }
  // A wrapper's words are read exactly (what it runs is a command of its own).
  if (NEVER_RUN_ARGUMENTS.has(base) || isWrapper(name.value)) return undefined;
  for (const word of words.slice(1)) {
    if (!word.literal) continue;
    const value = word.value.startsWith('-') && word.value.includes('=') ? word.value.slice(word.value.indexOf('=') + 1) : word.value;
    // A package runner's `NAME@VERSION` (`npx rm@latest`) runs NAME.
    const named = commandBasename(value).toLowerCase();
    if (value !== '' && (named === wanted || named.replace(/(?<=.)@[^@/]*$/, '') === wanted)) return `names ${wanted} as an argument`;
  }
  return undefined;
}

/** The rule's pattern with its program by lower-case basename, as the tails are rendered. */
function normalised(pattern: string, program: string): string {
  return commandBasename(program).toLowerCase() + pattern.replace(/\s+/g, ' ').slice(program.length);
}

/** The words after each run of leading options (each option maybe with one value after it). */
function afterOptions(words: readonly ShellWord[]): (readonly ShellWord[])[] {
  const tails: (readonly ShellWord[])[] = [];
  // reachable[i]: the words before index i can all be options and their values.
  const reachable = new Set<number>([1]);
  for (let i = 1; i < words.length; i++) {
    if (!reachable.has(i)) continue;
    const word = words[i]!;
    if (!word.literal || !word.value.startsWith('-') || word.value === '-') continue;
    if (word.value === '--') {
      if (i + 1 < words.length) tails.push(words.slice(i + 1));
      continue;
    }
    reachable.add(i + 1);
    if (!word.value.includes('=')) reachable.add(i + 2);
  }
  for (const i of reachable) if (i > 1 && i < words.length) tails.push(words.slice(i));
  return tails;
}

/** A command as a message names it: its text and the wrappers it runs inside. */
function describeCommand(command: ShellCommand): string {
  return `\`${command.text}\`${command.via.length > 0 ? ` (run by ${command.via.map((v) => `\`${v}\``).join(' → ')})` : ''}`;
}
