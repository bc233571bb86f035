import { useEffect, useState } from 'react';
import type { MentionSuggestion } from '../../../src/shared/protocol.js';
import { useActions } from '../common/actions-context.js';
import type { ActiveMention } from './mention-text.js';

/** Asks the host for completions while a mention or a command is typed (a short pause first, so typing is not flooded). */
export function useCompletionQuery(kind: 'mention' | 'command', typing: ActiveMention | undefined): void {
  const { send } = useActions();
  const query = typing?.query;
  useEffect(() => {
    if (query === undefined) return;
    const timer = setTimeout(() => send({ type: kind === 'command' ? 'suggestCommands' : 'suggestMentions', query }), 120);
    return () => clearTimeout(timer);
  }, [kind, query, send]);
}

/** The completions under the Task box; the caller moves the selection with the keyboard. */
export function MentionList({
  kind,
  items,
  selected,
  onPick,
}: {
  kind: 'mention' | 'command';
  items: readonly MentionSuggestion[];
  selected: number;
  onPick: (item: MentionSuggestion) => void;
}) {
  if (items.length === 0) return null;
  return (
    <div className="mention-list" role="listbox" aria-label={kind === 'command' ? 'Command completions' : 'Mention completions'}>
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
          <span className="mention-label">
            {kind === 'command' ? '/' : '@'}
            {item.label}
          </span>
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
