// Finding and completing the @-mention the caret is in (pure, so it is tested without a browser).

/** The @-mention being typed just before the caret: where its `@` is and the text after it. */
export interface ActiveMention {
  readonly at: number;
  readonly query: string;
}

// The mention grammar of src/core/context/mentions.ts: `@` at the start or after a space, bracket or quote.
const TYPING = /(?:^|[\s("'`[])@([^\s@,;()<>"'`[\]]*)$/;

/** The mention the caret is in, if any. */
export function activeMention(text: string, caret: number): ActiveMention | undefined {
  const match = TYPING.exec(text.slice(0, caret));
  if (!match) return undefined;
  const query = match[1] ?? '';
  return { at: caret - query.length - 1, query };
}

/** The text with the active mention replaced by the chosen one (a space after a file, none after a folder). */
export function completeMention(text: string, mention: ActiveMention, value: string): { readonly text: string; readonly caret: number } {
  const inserted = `@${value}${value.endsWith('/') ? '' : ' '}`;
  const after = text.slice(mention.at + 1 + mention.query.length);
  return { text: text.slice(0, mention.at) + inserted + after, caret: mention.at + inserted.length };
}

/** The `/command` being typed at the very start of the box (before any space), if any. */
export function activeCommand(text: string, caret: number): ActiveMention | undefined {
  const match = /^\/([^\s/]*)$/.exec(text.slice(0, caret));
  return match ? { at: 0, query: match[1] ?? '' } : undefined;
}

/** The text with the command being typed replaced by the chosen one and a space. */
export function completeCommand(text: string, command: ActiveMention, name: string): { readonly text: string; readonly caret: number } {
  const inserted = `/${name} `;
  return { text: inserted + text.slice(1 + command.query.length).replace(/^ /, ''), caret: inserted.length };
}
