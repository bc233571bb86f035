import { isAbsolute, resolve } from 'node:path';
import type { IgnorePolicy } from './ignore-policy.js';

/**
 * The words of a command line that name paths excluded by .smithignore. A command is not parsed
 * like a shell would; every word (quotes stripped, `--flag=value` split) is tried as a path, which
 * errs on the side of asking.
 */
export function ignoredPathsInCommand(command: string, cwd: string, ignore: IgnorePolicy): string[] {
  const words = command
    .split(/[\s;|&<>()]+/)
    .flatMap((word) => word.split('='))
    .map((word) => word.replace(/^['"]+|['"]+$/g, ''))
    .filter((word) => word !== '' && !word.startsWith('-') && /[\w.]/.test(word));
  const named = new Set<string>();
  for (const word of words) {
    const absolute = isAbsolute(word) ? word : resolve(cwd, word);
    if (ignore.isIgnored(absolute)) named.add(word);
  }
  return [...named];
}
