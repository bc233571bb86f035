import { type ParseArgsConfig, parseArgs } from 'node:util';
import { InvalidTaskIdError, taskIdProblem } from '../shared/task-id.js';

/** A mistake in how the CLI was called (exit code 2). */
export class UsageError extends Error {}

/** A task id given on the command line, or a UsageError saying what is wrong with it (see shared/task-id.ts). */
export function taskIdArgument(value: string, where: string): string {
  const problem = taskIdProblem(value);
  if (problem !== undefined) throw new UsageError(`${where}: ${new InvalidTaskIdError(value, problem).message}`);
  return value;
}

/** The flags a command knows, as node's parseArgs declares them. */
export type FlagOptions = NonNullable<ParseArgsConfig['options']>;

/** How a command's arguments are read besides its flags. */
export interface FlagParsing<Positionals extends boolean> {
  /** Whether arguments other than flags are allowed (otherwise each one is a usage error). */
  readonly positionals: Positionals;
  /** The command's usage text, printed after node's message about a bad flag. */
  readonly usage?: string;
}

/** The strict parseArgs call parseFlags makes; its result is typed per option from this. */
type StrictParse<Options extends FlagOptions, Positionals extends boolean> = {
  args: readonly string[];
  options: Options;
  allowPositionals: Positionals;
  strict: true;
};

/**
 * A command's flags read strictly by node's parseArgs (an unknown flag, a missing value or a value given to a
 * boolean flag is an error), typed per option; node's message about a bad flag becomes a UsageError, with the
 * usage text after it when given.
 */
export function parseFlags<const Options extends FlagOptions, const Positionals extends boolean>(
  args: readonly string[],
  options: Options,
  parsing: FlagParsing<Positionals>,
): ReturnType<typeof parseArgs<StrictParse<Options, Positionals>>> {
  const config: StrictParse<Options, Positionals> = { args, options, allowPositionals: parsing.positionals, strict: true };
  try {
    return parseArgs(config);
  } catch (error) {
    const message = (error as Error).message;
    throw new UsageError(parsing.usage === undefined ? message : `${message}\n${parsing.usage}`);
  }
}
