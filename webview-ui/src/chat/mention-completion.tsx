import { useEffect, useState } from 'react';
import type { MentionSuggestion } from '../../../src/shared/protocol.js';
import { useActions } from '../common/actions-context.js';
import type { ActiveMention } from './mention-text.js';

/** Asks the host for completions while a mention is typed (a short pause first, so typing is not flooded). */
export function useMentionQuery(mention: ActiveMention | undefined): void {
  const { send } = useActions();
  const query = mention?.query;
  useEffect(() => {
    if (query === undefined) return;
    const timer = setTimeout(() => send({ type: 'suggestMentions', query }), 120);
    return () => clearTimeout(timer);
  }, [query, send]);
}

/** The completions under the Task box; the caller moves the selection with the keyboard. */
export function MentionList({ items, selected, onPick }: { items: readonly MentionSuggestion[]; selected: number; onPick: (item: MentionSuggestion) => void }) {
  if (items.length === 0) return null;
  return (
    <div className="mention-list" role="listbox" aria-label="Mention completions">
      {items.map((item, index) => (
        <button
          key={item.value}
          type="button"
          role="option"
          aria-selected={index === selected}
          className={index === selected ? 'mention-option selected' : 'mention-option'}
          // Keeps the focus (and the caret) in the Task box.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onPick(item)}
        >
          <span className="mention-label">@{item.label}</span>
          <span className="mention-detail muted small">{item.detail}</span>
        </button>
      ))}
    </div>
  );
}

/** The selected completion, kept within the list as it changes. */
export function useSelection(count: number): [number, (move: number) => void, () => void] {
  const [selected, setSelected] = useState(0);
  const bounded = count === 0 ? 0 : Math.min(selected, count - 1);
  return [bounded, (move) => setSelected(count === 0 ? 0 : (bounded + move + count) % count), () => setSelected(0)];
}
