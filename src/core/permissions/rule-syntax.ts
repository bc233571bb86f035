// The syntax of a permission rule, apart from its matching: the CLI checks rules with it at
// start-up without loading the shell grammar.

/** A rule's tool name and its pattern, if any. */
export interface ParsedRule {
  readonly name: string;
  readonly pattern?: string;
}

/** Parses `Name` or `Name(pattern)`; throws with the rule when it is malformed. */
export function parseRule(text: string): ParsedRule {
  const match = /^\s*([A-Za-z_][\w-]*)(?:\((.*)\))?\s*$/s.exec(text);
  if (!match) throw new Error(`"${text}" is not a permission rule: write Tool or Tool(pattern), e.g. Bash(npm test) or Edit(src/**)`);
  const pattern = match[2]?.trim();
  return { name: match[1] ?? '', ...(pattern ? { pattern } : {}) };
}
