import type { UiMessage } from '../shared/ui-messages.js';

/** Messages a snapshot carries (the newest), and the size of a page the webview asks for as the user scrolls up. */
export const CHAT_PAGE = 50;

/**
 * Most messages one `taskMessages` update carries. A change that reaches further back (a rewind,
 * a card far up the chat) resets the webview's chat to the newest page instead: it asks for the
 * older ones again as the user scrolls.
 */
export const CHAT_UPDATE_CAP = 200;

/** The messages the panel holds of the open task: all of them, or (a stored task) the newest, `messagesFrom` the index of the first. */
export interface HeldChat {
  messages: readonly UiMessage[];
  messagesFrom: number;
  /** Reads the pages before `messages` (a stored task viewed from its log). */
  olderPages?: { readonly more: boolean; older(count: number): UiMessage[] };
}

/** The newest page of the chat: what a snapshot carries, with the index of its first message. */
export function newestPage(chat: HeldChat): { messages: readonly UiMessage[]; messagesFrom: number } {
  const { messages } = chat;
  const shown = messages.length > CHAT_PAGE ? messages.slice(messages.length - CHAT_PAGE) : messages;
  return { messages: shown, messagesFrom: chat.messagesFrom + messages.length - shown.length };
}

/**
 * The page of messages just before the one keyed `before` (at most CHAT_PAGE), with the index of
 * its first; older pages of a stored task are read from its log as they are needed. Throws when
 * the chat no longer has that message (a rewind took it away).
 */
export function pageBefore(chat: HeldChat, before: string): { start: number; messages: UiMessage[] } {
  let index = chat.messages.findIndex((message) => message.id === before);
  if (index === -1) throw new Error('That message is no longer in the chat.');
  while (index < CHAT_PAGE && chat.olderPages?.more) {
    const page = chat.olderPages.older(CHAT_PAGE);
    if (page.length === 0) continue;
    chat.messages = [...page, ...chat.messages];
    chat.messagesFrom = firstIndex(chat.messagesFrom - page.length, chat.olderPages.more);
    index += page.length;
  }
  // The start of the log reached: whatever the count said, nothing lies before.
  if (chat.olderPages && !chat.olderPages.more && chat.messagesFrom > 0) chat.messagesFrom = 0;
  const start = Math.max(0, index - CHAT_PAGE);
  return { start: chat.messagesFrom + start, messages: chat.messages.slice(start, index) };
}

/**
 * The index of the first message held, from the count of the whole chat: never 0 while the log has
 * older pages (a count that came out short must not hide them), never below 0.
 */
export function firstIndex(counted: number, more: boolean): number {
  return Math.max(more ? 1 : 0, counted);
}
