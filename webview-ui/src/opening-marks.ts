/**
 * Performance marks of the webview's part of opening the chat (the activation benchmark reads them
 * with performance.getEntriesByName, beside the host's marks): the bundle evaluated, the first
 * snapshot received, the chat drawn from it, and painted.
 */
export const OPENING_MARKS = {
  scriptEvaluated: 'smith:script-evaluated',
  firstSnapshot: 'smith:first-snapshot',
  chatDrawn: 'smith:chat-drawn',
  /** The frame after the chat was drawn has been painted: the chat is on screen. */
  chatPainted: 'smith:chat-painted',
} as const;

/** Marks `name` the first time only: a page is opened once. */
export function markOpeningOnce(name: (typeof OPENING_MARKS)[keyof typeof OPENING_MARKS]): void {
  if (performance.getEntriesByName(name, 'mark').length === 0) performance.mark(name);
}
