import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Codicon } from '../common/codicon.js';
import type { ChatItem } from './chat-items.js';
import { ChatItemView } from './message-row.js';

/** A first guess for an unmeasured row; rows are measured as they render. */
const ESTIMATED_ROW_HEIGHT = 72;
/** How close to the end (px) still counts as "at the bottom" for following new output. */
const BOTTOM_SLACK = 32;

/**
 * The chat's rows, virtualised: only the rows in view (plus overscan) are in the DOM, measured as
 * they render. Anchored to the end like a chat: new rows and a growing streaming row keep the view
 * at the bottom, unless the user scrolled up to read.
 */
export function MessageList({ items, taskId }: { items: readonly ChatItem[]; taskId: string }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [atBottom, setAtBottom] = useState(true);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    getItemKey: (index) => items[index]!.key,
    overscan: 6,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: BOTTOM_SLACK,
    paddingStart: 8,
    paddingEnd: 8,
  });

  // Opening a task starts at its latest message.
  useEffect(() => {
    if (items.length > 0) virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
    // Only when the task changes; appends are followed by the virtualizer itself.
  }, [taskId]);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (el !== null) setAtBottom(el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK);
  }, []);

  const jumpToEnd = () => {
    virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
  };

  const rows = virtualizer.getVirtualItems();
  const totalSize = virtualizer.getTotalSize();
  return (
    // Sized to the rows (capped by the flex layout), so nothing but the rows sits above the approval bar.
    <div className="message-list-frame" style={{ height: totalSize }}>
      <div ref={scrollRef} className="message-list" onScroll={onScroll} role="log" aria-label="Conversation" aria-live="off">
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
      {!atBottom && items.length > 0 && (
        <button type="button" className="jump-to-end" onClick={jumpToEnd} aria-label="Scroll to latest" title="Scroll to latest">
          <Codicon name="arrow-down" />
        </button>
      )}
    </div>
  );
}
