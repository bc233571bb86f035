import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, useState, type KeyboardEvent, type WheelEvent } from 'react';
import { useActions } from '../common/actions-context.js';
import { Codicon } from '../common/codicon.js';
import type { ChatItem } from './chat-items.js';
import { ChatItemView } from './message-row.js';

/** A first guess for an unmeasured row; rows are measured as they render. */
const ESTIMATED_ROW_HEIGHT = 72;
/** How close to the end (px) still counts as "at the bottom" for following new output. */
const BOTTOM_SLACK = 32;
/** How close to the top (in viewport heights) the older messages are asked for, so they are there before the user arrives. */
const OLDER_AHEAD = 1.5;
/** Keys that scroll the list up, and so mean the user wants to read back. */
const SCROLL_UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

/**
 * The chat's rows, virtualised: only the rows in view (plus overscan) are in the DOM, measured as
 * they render. Follows new output like a chat: while the user has not scrolled up, every change
 * (a new row, a growing streaming row, a row that turns out taller than its estimate once
 * measured) keeps the end in view. Scrolling up stops following and shows "Jump to latest";
 * scrolling back to the end, or the button, follows again.
 *
 * A long task's chat arrives as its newest page; nearing the top asks the host for the page before
 * the first message (`olderBefore`, its key). The virtualiser keeps the row in view where it was
 * when a page is put before it (anchored by key), so the reader's place does not move.
 */
export function MessageList({ items, taskId, olderBefore }: { items: readonly ChatItem[]; taskId: string; olderBefore?: string }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // A ref, not state: scroll events and layout effects read it in the same frame.
  const following = useRef(true);
  const lastScrollTop = useRef(0);
  const [showJump, setShowJump] = useState(false);
  const { request } = useActions();
  /** The key the older page was last asked before: asked once, until a page arrives or the request fails. */
  const asked = useRef<string | undefined>(undefined);

  const askOlder = useCallback(() => {
    const el = scrollRef.current;
    if (el === null || olderBefore === undefined || asked.current === olderBefore) return;
    if (el.scrollTop > el.clientHeight * OLDER_AHEAD) return;
    asked.current = olderBefore;
    request({ type: 'olderMessages', taskId, before: olderBefore }).catch(() => {
      if (asked.current === olderBefore) asked.current = undefined;
    });
  }, [olderBefore, taskId, request]);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    getItemKey: (index) => items[index]!.key,
    overscan: 6,
    anchorTo: 'end',
    scrollEndThreshold: BOTTOM_SLACK,
    paddingStart: 8,
    paddingEnd: 8,
  });

  const follow = useCallback((on: boolean) => {
    following.current = on;
    setShowJump(!on);
  }, []);

  const scrollToEnd = useCallback(() => {
    const el = scrollRef.current;
    if (el === null) return;
    el.scrollTop = el.scrollHeight;
    lastScrollTop.current = el.scrollTop;
  }, []);

  // Opening a task starts at its latest message, following.
  useLayoutEffect(() => {
    follow(true);
    scrollToEnd();
  }, [taskId, follow, scrollToEnd]);

  const rows = virtualizer.getVirtualItems();
  const totalSize = virtualizer.getTotalSize();
  // After every render that changed the rows or their measured sizes.
  useLayoutEffect(() => {
    if (following.current) {
      scrollToEnd();
      return;
    }
    // The rows shrank (a rewind, a shorter task) until the end is in view: nothing left to jump to.
    const el = scrollRef.current;
    if (el !== null && el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK) follow(true);
  }, [items, totalSize, scrollToEnd, follow]);

  // A page arrived (or the chat is shorter than the view) and the top is still near: the next one.
  useLayoutEffect(() => askOlder(), [askOlder, totalSize]);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (el === null) return;
    const top = el.scrollTop;
    const moved = top - lastScrollTop.current;
    lastScrollTop.current = top;
    if (el.scrollHeight - top - el.clientHeight <= BOTTOM_SLACK) follow(true);
    // Only a move up is the user's: growing content never moves scrollTop up.
    else if (moved < -1) follow(false);
    askOlder();
  }, [follow, askOlder]);

  // A wheel turn or key up means "let me read" even before the scroll event lands.
  const onWheel = useCallback(
    (event: WheelEvent<HTMLDivElement>) => {
      if (event.deltaY < 0) follow(false);
    },
    [follow],
  );
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      if (SCROLL_UP_KEYS.has(event.key)) follow(false);
    },
    [follow],
  );

  const jumpToEnd = () => {
    follow(true);
    virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
    scrollToEnd();
  };

  return (
    // Sized to the rows (capped by the flex layout), so nothing but the rows sits above the approval bar.
    <div className="message-list-frame" style={{ height: totalSize }}>
      <div
        ref={scrollRef}
        className="message-list"
        onScroll={onScroll}
        onWheel={onWheel}
        onKeyDown={onKeyDown}
        role="log"
        aria-label="Conversation"
        aria-live="off"
        tabIndex={0}
      >
        <div className="message-list-inner" style={{ height: totalSize }}>
          {rows.map((row) => (
            <div
              key={row.key as string}
              ref={virtualizer.measureElement}
              data-index={row.index}
              className="chat-row"
              style={{ transform: `translateY(${row.start}px)` }}
            >
              <ChatItemView item={items[row.index]!} />
            </div>
          ))}
        </div>
      </div>
      {showJump && items.length > 0 && (
        <button type="button" className="jump-to-end" onClick={jumpToEnd} title="Jump to the latest message">
          <Codicon name="arrow-down" /> Jump to latest
        </button>
      )}
    </div>
  );
}
