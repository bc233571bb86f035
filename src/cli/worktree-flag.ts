// `--worktree [NAME]` takes an optional value, which node's parseArgs cannot express: it is taken
// out of the command line here. The word after `--worktree` is the NAME when it is one word (no
// spaces, not an option) and a task still follows it; otherwise it is the task itself.

/** The command line without `--worktree` (and its NAME), and what it asked for; `problem` for a usage error. */
export function splitWorktreeFlag(
  argv: readonly string[],
  positionalCount: (argv: readonly string[]) => number,
): { argv: readonly string[]; worktree?: { readonly name?: string }; problem?: string } {
  const end = argv.indexOf('--');
  const limit = end === -1 ? argv.length : end;
  const isFlag = (arg: string) => arg === '--worktree' || arg.startsWith('--worktree=');
  const found = argv.slice(0, limit).flatMap((arg, i) => (isFlag(arg) ? [i] : []));
  if (found.length === 0) return { argv };
  if (found.length > 1) return { argv, problem: '--worktree is given twice' };
  const at = found[0]!;
  const flag = argv[at]!;
  const without = [...argv.slice(0, at), ...argv.slice(at + 1)];
  if (flag.startsWith('--worktree=')) {
    const name = flag.slice('--worktree='.length);
    if (name.trim() === '') return { argv, problem: '--worktree=NAME needs a name (or give --worktree alone to name it from the task)' };
    return { argv: without, worktree: { name } };
  }
  const next = argv[at + 1];
  if (next !== undefined && at + 1 < limit && !next.startsWith('-') && !/\s/.test(next)) {
    const rest = [...argv.slice(0, at), ...argv.slice(at + 2)];
    if (positionalCount(rest) > 0) return { argv: rest, worktree: { name: next } };
  }
  return { argv: without, worktree: {} };
}
