/** Names of the tools built into Smith, shared by the engine and the panel. */
export const BUILT_IN_TOOL_NAMES = [
  'read_file',
  'write_to_file',
  'replace_in_file',
  'ask_followup_question',
  'attempt_completion',
] as const;

export type BuiltInToolName = (typeof BUILT_IN_TOOL_NAMES)[number];

/** Tools whose calls change files, shown as diffs. */
export const EDIT_TOOL_NAMES: readonly string[] = ['write_to_file', 'replace_in_file'];
