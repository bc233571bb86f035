import { useLayoutEffect, useRef } from 'react';

/** Characters of output rendered at most; the rest is summarised so a noisy build stays cheap to lay out. */
const DISPLAY_CAP = 20_000;

/** A command's output, monospace in a bounded scroll box that follows the tail unless scrolled back. */
export function CommandOutput({ text, live }: { text: string; live: boolean }) {
  const ref = useRef<HTMLPreElement>(null);
  const follow = useRef(true);
  const hidden = Math.max(0, text.length - DISPLAY_CAP);
  const shown = hidden > 0 ? text.slice(hidden) : text;

  useLayoutEffect(() => {
    const pre = ref.current;
    if (pre !== null && follow.current) pre.scrollTop = pre.scrollHeight;
  }, [shown]);

  const onScroll = () => {
    const pre = ref.current;
    if (pre !== null) follow.current = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 8;
  };

  return (
    <div className="command-output">
      {hidden > 0 && <div className="muted small">… {hidden.toLocaleString()} earlier characters not shown</div>}
      <pre ref={ref} onScroll={onScroll} role="group" aria-label={live ? 'Live command output' : 'Command output'} tabIndex={0}>
        {shown === '' && live ? 'Waiting for output…' : shown}
      </pre>
    </div>
  );
}
