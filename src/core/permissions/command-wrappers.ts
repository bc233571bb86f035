// The programs and shell words that run other words as a command, and how each one's own options
// are read, so that a rule judges `rm x` inside `sudo -u root env FOO=1 nohup rm x`. This table is
// the one place that knows them; docs/permissions.md lists them.
import { changesWhatRuns } from './command-variables.js';
import { computedWord, literalWord, renderWords, type ShellWord } from './shell-words.js';
import { evalWords, git, script, sg, shell, source, su, trap } from './shell-wrappers.js';
import { commandBasename, NOTHING, opaque, readOptions, runs, SHELLS, type OptionSpec, type Unwrapped } from './wrapper-options.js';

interface CommandWrapperSpec extends OptionSpec {
  /** Operands before the command (timeout's duration, taskset's mask, chroot's folder). */
  readonly operands?: number;
  /** `NAME=value` words before the command (sudo, env). */
  readonly assignments?: boolean;
  /** Without a command it starts an interactive shell, which reads its commands from its input (`sudo -s`, `chroot DIR`). */
  readonly shellWithoutCommand?: true | string;
}

/** A wrapper of the common shape: options, fixed operands, maybe `NAME=value` words, then the command and its arguments. */
function optionsThenCommand(name: string, spec: CommandWrapperSpec): (words: readonly ShellWord[]) => Unwrapped {
  return (words) => {
    const read = readOptions(name, words, 1, spec);
    if ('stop' in read) return NOTHING;
    if ('opaque' in read) return opaque(read.opaque);
    let i = read.next;
    for (let n = 0; n < (spec.operands ?? 0); n++, i++) {
      const operand = words[i];
      if (!operand) return NOTHING;
      if (!operand.literal) return opaque(`the operands of ${name} are computed (${operand.value})`);
    }
    if (spec.assignments) {
      const assigned = readAssignments(name, words, i);
      if (typeof assigned === 'string') return opaque(assigned);
      i = assigned;
    }
    if (i >= words.length) {
      const starter = spec.shellWithoutCommand;
      const shell = starter === true || (typeof starter === 'string' && read.seen.some(([option]) => starter.includes(option)));
      return shell ? opaque(`${name} without a command starts a shell that reads its commands from its input`) : NOTHING;
    }
    return runs(words, i);
  };
}

/** Skips `NAME=value` words; a computed one, or one that sets PATH, LD_PRELOAD …, makes the line opaque. */
function readAssignments(name: string, words: readonly ShellWord[], start: number): number | string {
  let i = start;
  for (; i < words.length; i++) {
    const word = words[i]!;
    const variable = /^([A-Za-z_][\w%]*)=/.exec(word.value)?.[1];
    if (variable === undefined) {
      if (!word.literal) return `${name} runs a computed command (${word.value})`;
      return i;
    }
    if (changesWhatRuns(variable)) return `${name} sets ${variable}, which changes what a command runs`;
  }
  return i;
}

function env(words: readonly ShellWord[]): Unwrapped {
  const read = readOptions('env', words, 1, { valued: 'uCSP', longValued: ['unset', 'chdir', 'split-string'] });
  if ('stop' in read) return NOTHING;
  if ('opaque' in read) return opaque(read.opaque);
  if (read.seen.some(([option]) => option === 'P')) return opaque('env -P looks the command up in another search path');
  let i = read.next;
  // `env -` is `env -i`.
  if (words[i]?.literal && words[i]!.value === '-') i++;
  const assigned = readAssignments('env', words, i);
  if (typeof assigned === 'string') return opaque(assigned);
  const split = read.seen.filter(([option]) => option === 'S' || option === 'split-string').map(([, value]) => value ?? '');
  // -S splits its text into words, much as the shell does, which env then reads as its own
  // arguments (`env -S'-i rm x'`): env is read again with them in place.
  if (split.length > 0) return { own: words.slice(0, read.next), commands: [], scripts: [['env', ...split, renderWords(words.slice(read.next))].join(' ')] };
  return runs(words, assigned);
}

function xargs(words: readonly ShellWord[]): Unwrapped {
  const read = readOptions('xargs', words, 1, {
    valued: 'adEILnPs',
    attached: 'eil',
    longValued: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
  });
  if ('stop' in read) return NOTHING;
  if ('opaque' in read) return opaque(read.opaque);
  // With -I (or -i, --replace) each word holding the replacement text becomes input text.
  const replace = read.seen.find(([option]) => option === 'I' || option === 'i' || option === 'replace');
  const marker = replace ? (replace[1] ?? '{}') : undefined;
  const command = read.next < words.length ? words.slice(read.next) : [literalWord('echo')];
  const filled = marker ? command.map((word) => (word.literal && word.value.includes(marker) ? computedWord(word.value) : word)) : command;
  // The command gets the words xargs reads from its input.
  return runs(words, read.next, [...filled, computedWord('…')]);
}

function watch(words: readonly ShellWord[]): Unwrapped {
  const read = readOptions('watch', words, 1, { valued: 'nq', attached: 'd', longValued: ['interval', 'equexit'] });
  if ('stop' in read) return NOTHING;
  if ('opaque' in read) return opaque(read.opaque);
  const rest = words.slice(read.next);
  if (rest.length === 0) return NOTHING;
  if (read.seen.some(([option]) => option === 'x' || option === 'exec')) return runs(words, read.next);
  // Without -x, watch joins its words and runs them with `sh -c`.
  if (rest.some((word) => !word.literal)) return opaque('watch runs computed text with sh -c');
  return { own: words.slice(0, read.next), commands: [], scripts: [rest.map((word) => word.value).join(' ')] };
}

function busybox(words: readonly ShellWord[]): Unwrapped {
  const applet = words[1];
  if (!applet || (applet.literal && applet.value.startsWith('-'))) return NOTHING;
  return runs(words, 1);
}

const FIND_RUNS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

function find(words: readonly ShellWord[]): Unwrapped {
  const own: ShellWord[] = [];
  const commands: ShellWord[][] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    // A computed word could be -exec.
    if (!word.literal) return opaque(`find has a computed argument (${word.value}), which could make it run a command`);
    if (!FIND_RUNS.has(word.value)) {
      own.push(word);
      continue;
    }
    own.push(word);
    const command: ShellWord[] = [];
    for (i++; i < words.length; i++) {
      const part = words[i]!;
      if (part.literal && (part.value === ';' || (part.value === '+' && command.at(-1)?.value === '{}'))) break;
      // `{}` becomes each file found.
      command.push(part.literal && part.value.includes('{}') ? computedWord(part.value) : part);
    }
    if (command.length > 0) commands.push(command);
  }
  return { own, commands, scripts: [] };
}

function flock(words: readonly ShellWord[]): Unwrapped {
  const read = readOptions('flock', words, 1, { valued: 'wEc', longValued: ['timeout', 'conflict-exit-code', 'command'] });
  if ('stop' in read) return NOTHING;
  if ('opaque' in read) return opaque(read.opaque);
  const given = read.seen.filter(([option]) => option === 'c' || option === 'command').map(([, value]) => value ?? '');
  const lock = words[read.next];
  if (!lock) return { own: words, commands: [], scripts: given };
  if (!lock.literal) return opaque(`the lock file of flock is computed (${lock.value})`);
  const after = words[read.next + 1];
  if (after?.literal && (after.value === '-c' || after.value === '--command')) {
    const text = words[read.next + 2];
    if (text && !text.literal) return opaque('flock -c runs computed text');
    return { own: words.slice(0, read.next + 2), commands: [], scripts: [...given, ...(text ? [text.value] : [])] };
  }
  return { ...runs(words, read.next + 1), scripts: given };
}

type Unwrap = (words: readonly ShellWord[]) => Unwrapped;

const WRAPPERS: ReadonlyMap<string, Unwrap> = new Map<string, Unwrap>([
  ['command', optionsThenCommand('command', { stop: 'vV' })],
  ['builtin', optionsThenCommand('builtin', {})],
  ['exec', optionsThenCommand('exec', { valued: 'a' })],
  ['nohup', optionsThenCommand('nohup', {})],
  ['coproc', optionsThenCommand('coproc', {})],
  ['noglob', optionsThenCommand('noglob', {})],
  ['nocorrect', optionsThenCommand('nocorrect', {})],
  ['pkexec', optionsThenCommand('pkexec', { longValued: ['user'] })],
  ['sg', sg],
  ['time', optionsThenCommand('time', { valued: 'fo', longValued: ['format', 'output'] })],
  ['timeout', optionsThenCommand('timeout', { valued: 'sk', longValued: ['signal', 'kill-after'], operands: 1 })],
  ['nice', optionsThenCommand('nice', { valued: 'n', longValued: ['adjustment'], numeric: true })],
  ['ionice', optionsThenCommand('ionice', { valued: 'cnpPu', longValued: ['class', 'classdata', 'pid', 'pgid', 'uid'], stop: 'pPu' })],
  ['stdbuf', optionsThenCommand('stdbuf', { valued: 'ioe', longValued: ['input', 'output', 'error'] })],
  ['setsid', optionsThenCommand('setsid', {})],
  ['chrt', optionsThenCommand('chrt', { valued: 'TPD', longValued: ['sched-runtime', 'sched-period', 'sched-deadline'], stop: 'pm', operands: 1 })],
  ['taskset', optionsThenCommand('taskset', { stop: 'p', operands: 1 })],
  ['chroot', optionsThenCommand('chroot', { longValued: ['userspec', 'groups'], operands: 1, shellWithoutCommand: true })],
  [
    'unshare',
    optionsThenCommand('unshare', {
      valued: 'SGRwl',
      attached: 'muinpUCT',
      longValued: ['setuid', 'setgid', 'root', 'wd', 'map-user', 'map-group', 'map-users', 'map-groups', 'setgroups', 'propagation', 'load-interp'],
      shellWithoutCommand: true,
    }),
  ],
  [
    'sudo',
    optionsThenCommand('sudo', {
      valued: 'CDghpRrtTUu',
      longValued: ['close-from', 'chdir', 'group', 'host', 'prompt', 'chroot', 'role', 'type', 'command-timeout', 'other-user', 'user'],
      stop: 'elvVK',
      assignments: true,
      shellWithoutCommand: 'si',
    }),
  ],
  ['doas', optionsThenCommand('doas', { valued: 'au', stop: 'C', shellWithoutCommand: 's' })],
  ['env', env],
  ['xargs', xargs],
  ['watch', watch],
  ['busybox', busybox],
  ['toybox', busybox],
  ['find', find],
  ['script', script],
  ['su', su],
  ['runuser', su],
  ['eval', evalWords],
  ['source', source],
  ['.', source],
  ['trap', trap],
  ['flock', flock],
  ['git', git],
  ...[...SHELLS].map((name): [string, Unwrap] => [name, shell]),
]);

/** Whether a program name (by basename) is read by the table, so what it runs is known from its words. */
export function isWrapper(name: string): boolean {
  return WRAPPERS.has(commandBasename(name));
}

/**
 * What a command runs besides itself when it is a wrapper (its name matched by basename, so
 * `/usr/bin/sudo` is sudo); undefined for any other command.
 */
export function unwrap(words: readonly ShellWord[]): Unwrapped | undefined {
  const name = words[0];
  if (!name?.literal) return undefined;
  const handler = WRAPPERS.get(commandBasename(name.value));
  return handler?.(words);
}
