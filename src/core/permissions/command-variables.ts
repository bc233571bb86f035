// The variables whose value decides which program a command name runs; one list, read by the
// line's analysis (assignments, export, read …) and by the wrappers that take NAME=value words.

/**
 * Variables that change which program a command name runs or what a shell runs before it: the
 * search path, word splitting, start-up files, exported functions, the dynamic loader. A line that
 * sets one cannot be judged from its words.
 */
export function changesWhatRuns(name: string): boolean {
  return COMMAND_VARIABLES.has(name) || /^(?:LD_|DYLD_|BASH_FUNC_|GIT_CONFIG)/.test(name);
}

const COMMAND_VARIABLES = new Set([
  'PATH',
  'IFS',
  'ENV',
  'BASH_ENV',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'PROMPT_COMMAND',
  'FPATH',
  'BASH_CMDS',
  'BASH_ALIASES',
  'BASH_LOADABLES_PATH',
  'EXECIGNORE',
  'HOME',
  'ZDOTDIR',
  // Programs git and others run by a variable's value.
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_PAGER',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_EXTERNAL_DIFF',
  'GIT_ASKPASS',
  'GIT_PROXY_COMMAND',
  'GIT_EXEC_PATH',
  'SSH_ASKPASS',
  'PAGER',
  'EDITOR',
  'VISUAL',
]);
