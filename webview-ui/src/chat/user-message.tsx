import { useState } from 'react';
import type { UiAttachment } from '../../../src/shared/ui-messages.js';
import { useActions } from '../common/actions-context.js';
import { Codicon } from '../common/codicon.js';
import { IconButton } from '../common/icon-button.js';

interface UserMessageProps {
  readonly label: string;
  readonly icon: string;
  readonly text: string;
  readonly className: string;
  /** Where the message is in the task's log: what an edit names. */
  readonly seq: number;
  readonly taskId: string;
  /** Editing is offered only while Smith is not working on the task. */
  readonly idle: boolean;
  /** What its @-mentions and images attached. */
  readonly attached?: readonly UiAttachment[] | undefined;
}

const CHIP_ICONS: Readonly<Record<string, string>> = {
  file: 'file',
  folder: 'folder',
  url: 'globe',
  problems: 'warning',
  terminal: 'terminal',
  'git-changes': 'git-compare',
  commit: 'git-commit',
  image: 'file-media',
};

/** The user's message (or the task's first); Edit sends a changed text from this point on. */
export function UserMessage({ label, icon, text, className, seq, taskId, idle, attached }: UserMessageProps) {
  const { request, reportError } = useActions();
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [restoreFiles, setRestoreFiles] = useState(true);
  const [sending, setSending] = useState(false);
  const send = () => {
    if (draft === undefined || draft.trim() === '') return;
    setSending(true);
    request({ type: 'editMessage', taskId, seq, text: draft, restoreFiles }).then(
      () => {
        setSending(false);
        setDraft(undefined);
      },
      (error: unknown) => {
        setSending(false);
        reportError(error);
      },
    );
  };
  return (
    <div className={`msg ${className}`}>
      <div className="msg-label">
        <Codicon name={icon} />
        <span>{label}</span>
        {draft === undefined && idle && (
          <span className="msg-actions">
            <IconButton icon="edit" label="Edit and run again from here" onClick={() => setDraft(text)} />
          </span>
        )}
      </div>
      {draft === undefined ? (
        <>
          <div className="user-text">{text}</div>
          {attached !== undefined && attached.length > 0 && (
            <ul className="attachment-chips" aria-label="Attached">
              {attached.map((item) => (
                <li key={`${item.kind}:${item.ref}`} className="attachment-chip" title={item.truncated ? `${item.ref} (cut to fit)` : item.ref}>
                  <Codicon name={CHIP_ICONS[item.kind] ?? 'mention'} /> {item.ref}
                  {item.truncated ? ' (cut)' : ''}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <div className="message-edit">
          <textarea
            aria-label="Edited message"
            value={draft}
            rows={Math.min(10, Math.max(2, draft.split('\n').length))}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                send();
              } else if (event.key === 'Escape') {
                setDraft(undefined);
              }
            }}
          />
          <label className="small">
            <input type="checkbox" checked={restoreFiles} onChange={(event) => setRestoreFiles(event.target.checked)} /> Also put the files back to before this
            message
          </label>
          <div className="message-edit-actions">
            <button type="button" className="primary-button" disabled={sending || draft.trim() === ''} onClick={send}>
              <Codicon name="send" /> Run again
            </button>
            <button type="button" className="secondary-button" disabled={sending} onClick={() => setDraft(undefined)}>
              Cancel
            </button>
          </div>
          <p className="muted small">The conversation after this message is set aside (it stays in the task's log) and the edited text is sent instead.</p>
        </div>
      )}
    </div>
  );
}
