import { useState } from 'react';
import { useActions } from '../common/actions-context.js';
import { Codicon } from '../common/codicon.js';
import { IconButton } from '../common/icon-button.js';
import { useTaskRef } from '../common/task-context.js';

/** Messages sent while Smith works, waiting for its next request: each can be changed or removed until then. */
export function QueuedMessages({ queued }: { queued: readonly string[] }) {
  return (
    <ol className="queued-messages" aria-label="Queued messages">
      {queued.map((text, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the position is what the host's queue names; the text keeps equal texts apart
        <QueuedMessage key={`${index}:${text}`} index={index} text={text} />
      ))}
    </ol>
  );
}

function QueuedMessage({ index, text }: { index: number; text: string }) {
  const { send } = useActions();
  const taskRef = useTaskRef();
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const save = () => {
    if (draft !== undefined && draft.trim() !== '' && draft !== text) send({ type: 'updateQueued', index, was: text, text: draft, ...taskRef });
    setDraft(undefined);
  };
  return (
    <li className="queued-message">
      <Codicon name="clock" />
      {draft === undefined ? (
        <span className="queued-text" title="Goes with Smith's next request">
          {text}
        </span>
      ) : (
        <input
          className="queued-edit"
          aria-label="Edit queued message"
          value={draft}
          // biome-ignore lint/a11y/noAutofocus: the user just asked to edit this message
          autoFocus
          onChange={(event) => setDraft(event.target.value)}
          onBlur={save}
          onKeyDown={(event) => {
            if (event.key === 'Enter') save();
            else if (event.key === 'Escape') setDraft(undefined);
          }}
        />
      )}
      {draft === undefined && <IconButton icon="edit" label="Edit queued message" onClick={() => setDraft(text)} />}
      <IconButton icon="close" label="Remove queued message" onClick={() => send({ type: 'updateQueued', index, was: text, ...taskRef })} />
    </li>
  );
}
