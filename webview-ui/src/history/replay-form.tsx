import { useState } from 'react';
import type { HistoryItem } from '../../../src/shared/protocol.js';
import { useActions } from '../common/actions-context.js';

/**
 * "Replay with…" on a history item: the model to run the task again with (the Settings' provider),
 * in a scratch copy of its workspace; the comparison opens in an editor when the replay is done.
 */
export function ReplayForm({ item, defaultModel, onClose }: { item: HistoryItem; defaultModel: string; onClose: () => void }) {
  const { request, reportError } = useActions();
  const [model, setModel] = useState(defaultModel);
  const [started, setStarted] = useState<string | undefined>();
  const submit = () => {
    const chosen = model.trim();
    if (chosen === '') return;
    request({ type: 'replayTask', taskId: item.taskId, model: chosen }).then(() => setStarted(chosen), reportError);
  };
  if (started !== undefined) {
    return (
      <div className="replay-form small" role="status">
        <span>Replaying with {started} in a scratch copy; the comparison opens when it is done.</span>
        <button type="button" className="secondary-button" onClick={onClose}>
          OK
        </button>
      </div>
    );
  }
  return (
    <form
      className="replay-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <input aria-label={`Model to replay with: ${item.task}`} placeholder="Model id" value={model} onChange={(event) => setModel(event.target.value)} />
      <button type="submit" className="secondary-button" disabled={model.trim() === ''}>
        Replay
      </button>
      <button type="button" className="secondary-button" onClick={onClose}>
        Cancel
      </button>
    </form>
  );
}
