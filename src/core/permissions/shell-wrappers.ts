// The wrappers that run shell text or a script file: the shells (`bash -c TEXT`, `bash FILE`),
// eval, source, trap, script, su / runuser and sg. The line's analysis parses their texts again.
import { literalWord, type ShellWord } from './shell-words.js';
import { commandBasename, NOTHING, opaque, readOptions, runs, SHELLS, type Unwrapped } from './wrapper-options.js';

/** Shells run as `bash -c TEXT`, `sh -ec TEXT`, `bash script.sh`, and with nothing to run (they read their input). */
export function shell(words: readonly ShellWord[]): Unwrapped {
  const name = commandBasename(words[0]!.value);
  // `-c`: the first word after the options is the text to run; fish's `--command=TEXT` and `-C TEXT` carry it themselves.
  let textFollows = false;
  let stdin = false;
  const scripts: string[] = [];
  const computed = () => opaque(`${name} runs computed text`);
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (!word.literal) return opaque(`the options of ${name} are computed (${word.value})`);
    const text = word.value;
    if (text === '--' || text === '-') {
      i++;
      break;
    }
    if (!/^[-+]./.test(text)) break;
    if (text.startsWith('--')) {
      const [long, value] = text.slice(2).split(/=(.*)/s);
      if (long === 'command' || long === 'init-command') {
        if (value !== undefined) scripts.push(value);
        else if (words[i + 1] && !words[i + 1]!.literal) return computed();
        else if (words[i + 1]) scripts.push(words[++i]!.value);
      } else if (value === undefined && (long === 'rcfile' || long === 'init-file')) {
        i++;
      }
      continue;
    }
    for (const option of text.slice(1)) {
      if (option === 'c') textFollows = true;
      else if (option === 's') stdin = true;
      else if (option === 'C' && name === 'fish') {
        const init = words[++i];
        if (init && !init.literal) return computed();
        if (init) scripts.push(init.value);
      } else if (option === 'o' || option === 'O') i++;
    }
  }
  const own = words.slice(0, i);
  if (textFollows) {
    const text = words[i];
    if (text && !text.literal) return opaque(`${name} -c runs computed text (${text.value})`);
    // The words after the text become $0, $1 …, which the text reads as expansions.
    return { own, commands: [], scripts: text ? [...scripts, text.value] : scripts };
  }
  if (words.some((word, index) => index < i && word.literal && /^--command(?:=|$)/.test(word.value))) return { own, commands: [], scripts };
  if (stdin || i >= words.length) return { own, commands: [], scripts, opaque: `${name} without -c or a script reads its commands from its input` };
  if (words[i]!.literal && readsInput(words[i]!.value))
    return { own, commands: [], scripts, opaque: `${name} ${words[i]!.value} reads commands from its input` };
  // `bash script.sh args`: the rule sees it as running that file (its contents are not read).
  return { own, commands: [words.slice(i)], scripts };
}

/** A script path that is a stream, not a file: `/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0`. */
function readsInput(path: string): boolean {
  return /^\/(?:dev|proc)\//.test(path) || path === '-';
}

/** `eval WORDS`: the words joined with spaces are run again; computed ones make it opaque. */
export function evalWords(words: readonly ShellWord[]): Unwrapped {
  const args = words.slice(1);
  if (args.some((word) => !word.literal)) return opaque('eval runs computed text');
  return { own: words.slice(0, 1), commands: [], scripts: args.length > 0 ? [args.map((word) => word.value).join(' ')] : [] };
}

/** `source FILE args`: the rule sees it as running that file (its contents are not read). */
export function source(words: readonly ShellWord[]): Unwrapped {
  const file = words[1];
  if (!file) return NOTHING;
  if (!file.literal) return opaque(`${words[0]!.value} reads a computed file (${file.value})`);
  if (readsInput(file.value)) return opaque(`${words[0]!.value} ${file.value} reads commands from its input`);
  return runs(words, 1);
}

/** `trap TEXT SIGNAL…` runs TEXT when the signal comes; `trap - SIGNAL`, `trap -p`, `trap -l` run nothing. */
export function trap(words: readonly ShellWord[]): Unwrapped {
  let i = 1;
  if (words[i]?.literal && words[i]!.value === '--') i++;
  const action = words[i];
  if (!action || (action.literal && /^-[lp]?$/.test(action.value)) || i + 1 >= words.length) return NOTHING;
  if (!action.literal) return opaque('trap runs computed text');
  return { own: words.slice(0, i), commands: [], scripts: [action.value] };
}

/** `sg GROUP -c TEXT` or `sg GROUP command …` (joined and run with sh -c). */
export function sg(words: readonly ShellWord[]): Unwrapped {
  const group = words[1];
  if (!group) return NOTHING;
  if (!group.literal) return opaque(`the group of sg is computed (${group.value})`);
  const rest = words.slice(words[2]?.literal && words[2].value === '-c' ? 3 : 2);
  if (rest.length === 0) return opaque('sg without a command starts a shell that reads its commands from its input');
  if (rest.some((word) => !word.literal)) return opaque('sg runs computed text with sh -c');
  return { own: words.slice(0, words.length - rest.length), commands: [], scripts: [rest.map((word) => word.value).join(' ')] };
}

/** `script -c TEXT` runs TEXT with a shell; without -c, an interactive shell. */
export function script(words: readonly ShellWord[]): Unwrapped {
  const read = readOptions('script', words, 1, {
    valued: 'cEIOBTm',
    attached: 't',
    longValued: ['command', 'echo', 'log-in', 'log-out', 'log-io', 'log-timing', 'logging-format', 'output-limit'],
  });
  if ('stop' in read) return NOTHING;
  if ('opaque' in read) return opaque(read.opaque);
  const given = read.seen.filter(([option]) => option === 'c' || option === 'command').map(([, value]) => value ?? '');
  if (given.length > 0) return { own: words, commands: [], scripts: given };
  // BSD's `script FILE command …` runs the command; without one, an interactive shell.
  if (read.next + 1 < words.length) return runs(words, read.next + 1);
  return opaque('script without -c starts a shell that reads its commands from its input');
}

/** su and runuser take their options anywhere; `-c TEXT` runs TEXT with the user's shell. */
export function su(words: readonly ShellWord[]): Unwrapped {
  const name = words[0]!.value;
  const scripts: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (!word.literal) return opaque(`${name} has a computed argument (${word.value})`);
    const text = word.value;
    // `runuser -u USER -- command …` runs the command itself.
    if (text === '--' && commandBasename(name) === 'runuser')
      return { own: words.slice(0, i + 1), commands: i + 1 < words.length ? [words.slice(i + 1)] : [], scripts };
    const long = /^--([\w-]+)(?:=(.*))?$/s.exec(text);
    const takeValue = (attached: string | undefined) => {
      if (attached !== undefined) return attached;
      const next = words[++i];
      if (next && !next.literal) throw new Error(`${name} runs computed text`);
      return next?.value ?? '';
    };
    try {
      if (long) {
        if (long[1] === 'command' || long[1] === 'session-command') scripts.push(takeValue(long[2]));
        else if (long[1] === 'shell' && !SHELLS.has(commandBasename(takeValue(long[2])))) return opaque(`${name} --shell runs another program`);
        else if (['group', 'supp-group', 'whitelist-environment'].includes(long[1]!) && long[2] === undefined) i++;
        continue;
      }
      if (!/^-./.test(text)) continue;
      for (let j = 1; j < text.length; j++) {
        const option = text[j]!;
        if (!'cgGswu'.includes(option)) continue;
        const value = takeValue(text.slice(j + 1) || undefined);
        if (option === 'c') scripts.push(value);
        if (option === 's' && !SHELLS.has(commandBasename(value))) return opaque(`${name} -s runs another program`);
        break;
      }
    } catch (error) {
      return opaque((error as Error).message);
    }
  }
  if (scripts.length === 0) return opaque(`${name} without -c starts a shell that reads its commands from its input`);
  return { own: words, commands: [], scripts };
}

/**
 * Configuration keys `git -c KEY=VALUE` may set without making git run a program: every other key
 * (`alias.*`, `core.pager`, `core.sshCommand`, `core.editor`, `diff.external`, `filter.*`,
 * `credential.helper` …) can make git run a program or another subcommand, so it is opaque.
 */
const GIT_HARMLESS_CONFIG =
  /^(?:(?:color|user|advice|init|i18n|column|log|status|blame|grep|format|help)\.[\w.-]+|safe\.directory|core\.(?:quotepath|autocrlf|safecrlf|filemode|longpaths|ignorecase|abbrev|eol|precomposeunicode|whitespace)|push\.default|pull\.(?:rebase|ff)|merge\.(?:ff|conflictstyle)|diff\.(?:noprefix|renames|mnemonicprefix|algorithm|colormoved)|commit\.(?:gpgsign|verbose)|protocol\.version|http\.sslverify)$/i;

/** git's subcommands that take `--upload-pack` / `--receive-pack` / `--exec`, which a computed word could be. */
const GIT_TRANSPORTS = new Set(['clone', 'fetch', 'pull', 'push', 'ls-remote', 'archive']);

/** git's options before its subcommand that take the next word as their value. */
const GIT_VALUED = new Set(['-C', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--attr-source', '--list-cmds']);

/** Where git's subcommand is in its words (after `-C DIR`, `-c KEY=VALUE` and its other options), or -1 when there is none. */
export function gitSubcommandIndex(words: readonly ShellWord[]): number {
  for (let i = 1; i < words.length; i++) {
    const text = words[i]!.value;
    if (!text.startsWith('-')) return i;
    if (text === '-c' || GIT_VALUED.has(text)) i++;
  }
  return -1;
}

/**
 * git runs shell text or programs through its own options: `-c alias.x='!rm x'`, `-c core.pager=…`,
 * `--config-env`, `--exec-path=DIR`; and through subcommands: `rebase -x TEXT`, `bisect run CMD`,
 * `submodule foreach TEXT`, `filter-branch`, `difftool -x`. Those are read as texts and commands
 * or made opaque; git's other subcommands run nothing the line names.
 */
export function git(words: readonly ShellWord[]): Unwrapped {
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (!word.literal) return opaque(`the options of git are computed (${word.value})`);
    const text = word.value;
    if (!text.startsWith('-')) break;
    if (text === '-c' || text.startsWith('-c')) {
      const setting = text === '-c' ? words[++i] : literalWord(text.slice(2));
      if (!setting) break;
      if (!setting.literal) return opaque(`git -c sets a computed setting (${setting.value})`);
      const key = setting.value.split('=')[0]!;
      if (!GIT_HARMLESS_CONFIG.test(key)) return opaque(`git -c ${key} can make git run a program or another command`);
      continue;
    }
    if (/^--config-env(?:=|$)/.test(text)) return opaque('git --config-env sets a setting from a variable');
    if (/^--exec-path=/.test(text)) return opaque('git --exec-path= looks its commands up in another folder');
    if (GIT_VALUED.has(text)) i++;
  }
  const sub = words[i]?.value;
  const args = words.slice(i + 1);
  // The program git runs on the other side of a transport (`clone -u`, `fetch --upload-pack=…`, `archive --exec`).
  const transport = args.find(
    (word) =>
      (!word.literal && GIT_TRANSPORTS.has(sub ?? '')) ||
      /^--(?:upload-pack|receive-pack|exec)(?:=|$)/.test(word.value) ||
      (sub === 'clone' && /^-\w*u/.test(word.value)),
  );
  if (transport && sub !== 'rebase') return opaque(`git ${sub ?? ''} ${transport.value} can run another program`);
  const own = words.slice(0, i + 1);
  if (sub === 'filter-branch' || sub === 'mergetool' || sub === 'difftool') {
    if (sub !== 'difftool' || args.some((word) => !word.literal || /^(?:-x|--extcmd)/.test(word.value))) return opaque(`git ${sub} runs commands it is given`);
  }
  if (sub === 'rebase') {
    const scripts: string[] = [];
    for (let j = 0; j < args.length; j++) {
      const word = args[j]!;
      const exec = /^(?:-x|--exec)(?:=(.*))?$/s.exec(word.value) ?? (word.value.startsWith('-x') ? [word.value, word.value.slice(2)] : null);
      if (!exec) continue;
      const value = exec[1] !== undefined && exec[1] !== '' ? literalWord(exec[1]) : args[++j];
      if (!word.literal || (value && !value.literal)) return opaque('git rebase --exec runs computed text');
      if (value) scripts.push(value.value);
    }
    return { own, commands: [], scripts };
  }
  if (sub === 'bisect' && args[0]?.value === 'run') return runs(words, i + 2);
  if (sub === 'submodule') {
    const at = args.findIndex((word) => word.literal && word.value === 'foreach');
    if (at >= 0) {
      const rest = args.slice(at + 1).filter((word) => !(word.literal && /^--(?:recursive|quiet)$|^-q$/.test(word.value)));
      if (rest.some((word) => !word.literal)) return opaque('git submodule foreach runs computed text');
      return { own: words.slice(0, words.length - rest.length), commands: [], scripts: rest.length > 0 ? [rest.map((word) => word.value).join(' ')] : [] };
    }
  }
  return NOTHING;
}
