import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { AutoApproveView, PanelState, TaskView } from '../../../src/shared/protocol.js';
import { Codicon } from '../common/codicon.js';
import { useEffectEvent } from '../common/use-effect-event.js';
import { useActions } from '../common/actions-context.js';
import type { RequestPayload } from '../../../src/shared/request-client.js';
import { readUiState, writeUiState } from '../vscode-api.js';
import { appendToDraft } from './draft-text.js';
import { QueuedMessages } from './queued-messages.js';
import { AutoApproveBar } from './auto-approve-bar.js';
import { ImageStrip, MAX_IMAGES, readImages, type PendingImage } from './image-attachments.js';
import { MentionList, useCompletionQuery, useSelection } from './mention-completion.js';
import { activeCommand, activeMention, completeCommand, completeMention } from './mention-text.js';
import { useTaskRef } from '../common/task-context.js';

/** Statuses in which the task is busy and can be cancelled. */
const ACTIVE = new Set<TaskView['status']>(['running', 'awaiting_approval', 'awaiting_answer']);
const MAX_ROWS = 10;

type Intent = { kind: 'newTask' } | { kind: 'answer' } | { kind: 'message' } | { kind: 'approval' } | { kind: 'queue' };

/** What Send does now: start a task, answer the model's question, or continue the task. */
function intentFor(task: TaskView | undefined): Intent {
  if (task === undefined) return { kind: 'newTask' };
  if (task.pendingQuestion !== undefined || task.status === 'awaiting_answer') return { kind: 'answer' };
  if (task.pendingApproval !== undefined) return { kind: 'approval' };
  if (ACTIVE.has(task.status)) return { kind: 'queue' };
  return { kind: 'message' };
}

const PLACEHOLDERS: Record<Intent['kind'], string> = {
  newTask: 'Describe a task… (Enter to send, Shift+Enter for a new line)',
  answer: 'Answer the question…',
  message: 'Reply or give the next instruction…',
  approval: 'Approve or reject the action above first',
  queue: 'Smith is working: Enter queues a message for its next step, Ctrl+Enter sends it now…',
};

/**
 * The input at the bottom of the chat. The draft survives reloads (UI state, not task data). Text
 * the host sends for it (`inserts`, e.g. an editor selection) is appended, and the box takes the
 * focus with the caret after it.
 */
export function Composer({
  task,
  autoApprove,
  suggestions,
  commandSuggestions,
  inserts,
  onInsertsTaken,
}: {
  task: TaskView | undefined;
  autoApprove: AutoApproveView;
  /** The host's completions for the @-mention being typed. */
  suggestions: PanelState['mentionSuggestions'];
  /** The host's completions for the `/command` being typed. */
  commandSuggestions: PanelState['commandSuggestions'];
  inserts: readonly string[];
  onInsertsTaken: (count: number) => void;
}) {
  const { request, reportError, send } = useActions();
  const taskRef = useTaskRef();
  const [text, setText] = useState(() => readUiState().draft ?? '');
  const input = useRef<HTMLTextAreaElement>(null);
  const caretToEnd = useRef(false);
  const intent = intentFor(task);
  const canSend = text.trim() !== '' && intent.kind !== 'approval';
  const [caret, setCaret] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | undefined>(undefined);
  const [images, setImages] = useState<readonly PendingImage[]>([]);
  const command = intent.kind === 'answer' ? undefined : activeCommand(text, caret);
  const typed = command ?? activeMention(text, caret);
  const mention = typed !== undefined && typed.at !== dismissedAt ? typed : undefined;
  const kind = command !== undefined ? 'command' : 'mention';
  useCompletionQuery('mention', kind === 'mention' ? mention : undefined);
  useCompletionQuery('command', kind === 'command' ? mention : undefined);
  const offered = kind === 'command' ? commandSuggestions : suggestions;
  const completions = mention !== undefined && offered?.query === mention.query ? offered.items : [];
  const [selected, moveSelection, resetSelection] = useSelection(completions.length);

  const pick = (value: string) => {
    if (mention === undefined) return;
    const done = kind === 'command' ? completeCommand(text, mention, value) : completeMention(text, mention, value);
    update(done.text);
    setCaret(done.caret);
    resetSelection();
    requestAnimationFrame(() => input.current?.setSelectionRange(done.caret, done.caret));
  };
  const addImages = (files: Iterable<File>) => {
    readImages(files).then((read) => setImages((current) => [...current, ...read].slice(0, MAX_IMAGES)), reportError);
  };

  const update = (value: string) => {
    setText(value);
    writeUiState({ draft: value });
  };

  // Only new inserts matter; `text` is read as it is when they arrive (`takeInserts` never changes).
  const takeInserts = useEffectEvent((taken: readonly string[]) => {
    update(taken.reduce((draft, inserted) => appendToDraft(draft, inserted), text));
    caretToEnd.current = true;
    onInsertsTaken(taken.length);
  });
  useEffect(() => {
    if (inserts.length > 0) takeInserts(inserts);
  }, [inserts, takeInserts]);

  // After the inserted text is rendered, so the caret lands after it and the box shows its end.
  useLayoutEffect(() => {
    const box = input.current;
    if (!caretToEnd.current || box === null) return;
    caretToEnd.current = false;
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
    box.scrollTop = box.scrollHeight;
  }, [text]);

  /**
   * `now`: while Smith works, cut its answer off and deliver the message at once (steer) instead of
   * queueing it. `worktree`: a new task runs in a git worktree and branch of its own.
   */
  const submit = (now = false, worktree = false) => {
    if (!canSend) return;
    const sent = text.trim();
    const attached = images.length > 0 ? { images: images.map(({ name, data }) => ({ name, data })) } : {};
    const payload: RequestPayload =
      intent.kind === 'newTask'
        ? { type: 'newTask', text: sent, ...attached, ...(worktree ? { worktree: true } : {}) }
        : intent.kind === 'answer'
          ? { type: 'answer', text: sent, ...taskRef }
          : now && intent.kind === 'queue'
            ? { type: 'steerMessage', text: sent, ...taskRef }
            : { type: 'sendMessage', text: sent, ...attached, ...taskRef };
    const sentImages = images;
    update('');
    if ('images' in payload) setImages([]);
    request(payload).catch((error: unknown) => {
      // Give the words back rather than lose them, unless the user already typed something new.
      setText((current) => (current === '' ? sent : current));
      if ('images' in payload) setImages((current) => (current.length === 0 ? sentImages : current));
      reportError(error);
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (completions.length > 0 && !event.nativeEvent.isComposing) {
      const chosen = completions[selected];
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        moveSelection(event.key === 'ArrowDown' ? 1 : -1);
        return;
      }
      if ((event.key === 'Enter' || event.key === 'Tab') && chosen !== undefined) {
        event.preventDefault();
        pick(chosen.value);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setDismissedAt(mention?.at);
        return;
      }
    }
    // isComposing: Enter that confirms an IME candidate must not send.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit(event.ctrlKey || event.metaKey);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  const rows = Math.min(MAX_ROWS, Math.max(2, text.split('\n').length));
  const active = task !== undefined && ACTIVE.has(task.status);
  return (
    <form
      className="composer"
      onSubmit={onSubmit}
      onDragOver={(event) => {
        if (event.dataTransfer.types.includes('Files')) event.preventDefault();
      }}
      onDrop={(event) => {
        if (event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        addImages(event.dataTransfer.files);
      }}
    >
      <AutoApproveBar settings={autoApprove} />
      {task?.queued !== undefined && task.queued.length > 0 && <QueuedMessages queued={task.queued} />}
      {task?.status === 'running' && (
        <div className="working muted small" role="status">
          <Codicon name="loading" spin /> Working…
        </div>
      )}
      <ImageStrip images={images} onRemove={(index) => setImages((current) => current.filter((_, i) => i !== index))} />
      <MentionList kind={kind} items={completions} selected={selected} onPick={(item) => pick(item.value)} />
      <textarea
        ref={input}
        className="composer-input"
        aria-label="Task"
        aria-autocomplete="list"
        rows={rows}
        value={text}
        placeholder={PLACEHOLDERS[intent.kind]}
        onChange={(event) => {
          update(event.target.value);
          setCaret(event.target.selectionStart);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onPaste={(event) => {
          const files = [...event.clipboardData.files].filter((file) => file.type.startsWith('image/'));
          if (files.length === 0) return;
          event.preventDefault();
          addImages(files);
        }}
      />
      <div className="composer-buttons">
        <label className="icon-button attach-image" title="Attach images (or paste or drop them into the box)">
          <Codicon name="file-media" />
          <span className="sr-only">Attach images</span>
          <input
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            multiple
            hidden
            onChange={(event) => {
              if (event.target.files) addImages(event.target.files);
              event.target.value = '';
            }}
          />
        </label>
        {active && (
          <button
            type="button"
            className="secondary-button"
            aria-label="Cancel"
            title="Cancel the task"
            onClick={() => send({ type: 'cancelTask', ...taskRef })}
          >
            <Codicon name="debug-stop" /> Cancel
          </button>
        )}
        {intent.kind === 'queue' && (
          <button
            type="button"
            className="secondary-button"
            aria-label="Send now"
            title="Cut Smith's answer off and send this now (Ctrl+Enter)"
            disabled={!canSend}
            onClick={() => submit(true)}
          >
            <Codicon name="debug-step-into" /> Now
          </button>
        )}
        {intent.kind === 'newTask' && (
          <button
            type="button"
            className="secondary-button"
            aria-label="Start in new worktree"
            title="Start the task in a git worktree and branch of its own, beside the workspace (docs/parallel-tasks.md)"
            disabled={!canSend}
            onClick={() => submit(false, true)}
          >
            <Codicon name="git-branch" />
          </button>
        )}
        <button
          type="submit"
          className="primary-button"
          aria-label={intent.kind === 'queue' ? 'Queue' : 'Send'}
          title={intent.kind === 'queue' ? "Queue for Smith's next step (Enter)" : 'Send (Enter)'}
          disabled={!canSend}
        >
          <Codicon name={intent.kind === 'queue' ? 'list-ordered' : 'send'} />
        </button>
      </div>
    </form>
  );
}
