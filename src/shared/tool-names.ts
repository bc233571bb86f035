/** Tools whose calls change files; the panel shows their diff stats. */
export const EDIT_TOOL_NAMES: readonly string[] = ['write_to_file', 'replace_in_file', 'new_rule'];
