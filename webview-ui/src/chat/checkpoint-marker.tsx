import { useState } from 'react';
import type { UiCheckpointMessage } from '../../../src/shared/ui-messages.js';
import { useActions } from '../common/actions-context.js';
import { Codicon } from '../common/codicon.js';

type Scope = 'both' | 'files' | 'conversation';

const CHOICES: readonly { readonly scope: Scope; readonly label: string; readonly hint: string }[] = [
  { scope: 'both', label: 'Files and conversation', hint: 'The workspace and the chat go back to this point.' },
  { scope: 'files', label: 'Files only', hint: 'The workspace goes back; the chat stays.' },
  { scope: 'conversation', label: 'Conversation only', hint: 'The chat goes back (the model sees it as it was); the files stay.' },
];

/** A checkpoint of the workspace after a step that changed it, with Compare and Restore (and, on the first, Bisect…). */
export function CheckpointMarker({ checkpoint, taskId, idle }: { checkpoint: UiCheckpointMessage; taskId: string; idle: boolean }) {
  const { send } = useActions();
  const [choosing, setChoosing] = useState(false);
  const first = checkpoint.checkpointId === '0';
  const what = first ? 'the workspace as the task found it' : changedText(checkpoint);
  const busy = idle ? undefined : 'Available when Smith is not working on the task';
  const restore = (scope: Scope) => {
    setChoosing(false);
    send({ type: 'restoreCheckpoint', taskId, checkpointId: checkpoint.checkpointId, scope });
  };
  return (
    <div className="checkpoint" data-checkpoint={checkpoint.checkpointId}>
      <div className="checkpoint-line">
        <Codicon name="git-commit" />
        <span className="checkpoint-name">Checkpoint {checkpoint.checkpointId}</span>
        <span className="checkpoint-what" title={checkpoint.changed.join('\n') || what}>
          · {what}
        </span>
        {checkpoint.skipped.length > 0 && (
          <span className="checkpoint-skipped" title={checkpoint.skipped.map((s) => `${s.path}: ${s.reason}`).join('\n')}>
            <Codicon name="warning" /> {checkpoint.skipped.length} not kept
          </span>
        )}
        <span className="checkpoint-actions">
          <button
            type="button"
            className="link-button"
            disabled={!idle}
            title={busy ?? 'Compare this checkpoint with the files now'}
            onClick={() => send({ type: 'compareCheckpoint', taskId, checkpointId: checkpoint.checkpointId })}
          >
            <Codicon name="diff" /> Compare
          </button>
          <button
            type="button"
            className="link-button"
            disabled={!idle}
            aria-expanded={choosing}
            title={busy ?? 'Go back to this checkpoint'}
            onClick={() => setChoosing(!choosing)}
          >
            <Codicon name="discard" /> Restore
          </button>
          {first && (
            <button
              type="button"
              className="link-button"
              disabled={!idle}
              title={busy ?? 'Find the step after which a test command fails: each checkpoint is tested in a scratch copy'}
              onClick={() => send({ type: 'bisectTask', taskId })}
            >
              <Codicon name="debug-step-over" /> Bisect…
            </button>
          )}
        </span>
      </div>
      {choosing && (
        <div className="checkpoint-choices" role="group" aria-label={`Restore checkpoint ${checkpoint.checkpointId}`}>
          {CHOICES.map((choice) => (
            <button key={choice.scope} type="button" className="secondary-button" title={choice.hint} onClick={() => restore(choice.scope)}>
              {choice.label}
            </button>
          ))}
          <button type="button" className="link-button" onClick={() => setChoosing(false)}>
            Cancel
          </button>
        </div>
      )}
    </div>
  );
}

function changedText(checkpoint: UiCheckpointMessage): string {
  if (checkpoint.changedCount === 1 && checkpoint.changed[0]) return checkpoint.changed[0];
  return `${checkpoint.changedCount} files changed`;
}
