import { builtinCommandsOf, type BuiltinCommand } from '../shared/builtin-commands.js';

/** A built-in command as the REPL's help lists it: `/name args`, the description in a column, its notes under the description. */
export function commandHelpLines(command: BuiltinCommand): string[] {
  const usage = `/${command.name}${command.args ? ` ${command.args}` : ''}`;
  const description = `${command.description.charAt(0).toLowerCase()}${command.description.slice(1)}`;
  return [`  ${usage.padEnd(16)} ${description}`, ...(command.notes ?? []).map((note) => `${' '.repeat(19)}${note}`)];
}

/** The help of the REPL's built-in command `name`. */
export function commandHelp(name: string): string {
  return builtinCommandsOf('cli')
    .filter((c) => c.name === name)
    .flatMap(commandHelpLines)
    .join('\n');
}
