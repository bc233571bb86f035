// How a wrapper's words are read: what it runs, and its options.
import type { ShellWord } from './shell-words.js';

/** What a wrapper runs, read from its words. */
export interface Unwrapped {
  /** The wrapper's own words (`sudo -u root`): an allow rule must allow them as well as what it runs. */
  readonly own: readonly ShellWord[];
  /** The commands it runs, as words. */
  readonly commands: readonly (readonly ShellWord[])[];
  /** Shell text it runs (`bash -c`, `eval`, `watch`, `su -c` …), to be parsed again. */
  readonly scripts: readonly string[];
  /** Why what it runs cannot be known (it reads commands from its input, its options are computed …). */
  readonly opaque?: string;
}

/** Shells whose `-c` text is parsed again (fish and csh speak another language; their simple commands read alike). */
export const SHELLS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'mksh',
  'pdksh',
  'ash',
  'yash',
  'posh',
  'fish',
  'csh',
  'tcsh',
  'rbash',
]);

/** The last path segment: `/bin/rm` and `./node_modules/.bin/rm` are named `rm`. */
export function commandBasename(name: string): string {
  const trimmed = name.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || name;
}

export const NOTHING: Unwrapped = { own: [], commands: [], scripts: [] };

export function runs(words: readonly ShellWord[], at: number, command: readonly ShellWord[] = words.slice(at)): Unwrapped {
  return { own: words.slice(0, at), commands: command.length > 0 ? [command] : [], scripts: [] };
}

export function opaque(reason: string): Unwrapped {
  return { ...NOTHING, opaque: reason };
}

/** How a wrapper's options are read: the short ones that take a value, the long ones, those after which nothing runs. */
export interface OptionSpec {
  /** Short options that take a value, attached (`-n10`) or as the next word (`-n 10`). */
  readonly valued?: string;
  /** Short options whose value, if any, is attached only (xargs `-i{}`). */
  readonly attached?: string;
  /** Long options that take the next word as their value when written without `=`. */
  readonly longValued?: readonly string[];
  /** Short options after which nothing is run (`command -v`, `sudo -l`). */
  readonly stop?: string;
  /** `-10` is an option (nice). */
  readonly numeric?: boolean;
}

type ReadOptions =
  | { readonly next: number; readonly seen: ReadonlyArray<readonly [string, string | undefined]> }
  | { readonly opaque: string }
  | { readonly stop: true };

/** Reads options from `start` up to the first operand (or `--`). */
export function readOptions(name: string, words: readonly ShellWord[], start: number, spec: OptionSpec): ReadOptions {
  const seen: Array<[string, string | undefined]> = [];
  const computed = (word: ShellWord) => ({ opaque: `the options of ${name} are computed (${word.value})` });
  let i = start;
  while (i < words.length) {
    const word = words[i]!;
    if (!word.literal) return computed(word);
    const text = word.value;
    if (text === '--') return { next: i + 1, seen };
    if (!text.startsWith('-') || text === '-') break;
    i++;
    if (spec.numeric && /^--?\d+$/.test(text)) continue;
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const long = text.slice(2, eq < 0 ? undefined : eq);
      if (long === 'help' || long === 'version') return { stop: true };
      if (eq < 0 && spec.longValued?.includes(long)) {
        const value = words[i];
        if (value && !value.literal) return computed(value);
        seen.push([long, value?.value]);
        i++;
      } else {
        seen.push([long, eq < 0 ? undefined : text.slice(eq + 1)]);
      }
      continue;
    }
    for (let j = 1; j < text.length; j++) {
      const option = text[j]!;
      if (spec.stop?.includes(option)) return { stop: true };
      if (spec.valued?.includes(option)) {
        const rest = text.slice(j + 1);
        if (rest) {
          seen.push([option, rest]);
        } else {
          const value = words[i];
          if (value && !value.literal) return computed(value);
          seen.push([option, value?.value]);
          i++;
        }
        break;
      }
      if (spec.attached?.includes(option)) {
        seen.push([option, text.slice(j + 1) || undefined]);
        break;
      }
      seen.push([option, undefined]);
    }
  }
  return { next: i, seen };
}
