/**
 * The draft with inserted text (an editor selection) after it: a blank line apart, so a fenced
 * block never runs into the words before it, and a newline after, so typing goes below the block.
 */
export function appendToDraft(draft: string, inserted: string): string {
  const block = inserted.replace(/\n+$/, '');
  if (block === '') return draft;
  const head = draft.replace(/\s+$/, '');
  return `${head === '' ? '' : `${head}\n\n`}${block}\n`;
}
