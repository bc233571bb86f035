import { Codicon } from '../common/codicon.js';
import { useActions } from '../common/actions-context.js';
import { usePendingRequest } from '../common/use-pending-request.js';
import { useTaskRef } from '../common/task-context.js';

/** An error line; the one the task stopped at offers Retry and Open Settings (most failures are a key, model or address). */
export function ErrorCard({ text, retryable }: { text: string; retryable: boolean }) {
  const { openView } = useActions();
  const [pending, send] = usePendingRequest<'retry'>();
  const taskRef = useTaskRef();
  return (
    <div className="card error-card" role={retryable ? 'alert' : undefined}>
      <div className="error-text">
        <Codicon name="error" />
        <span>{text}</span>
      </div>
      {retryable && (
        <div className="button-row">
          <button type="button" className="secondary-button" onClick={() => send('retry', { type: 'retry', ...taskRef })} disabled={pending !== undefined}>
            <Codicon name="refresh" /> Retry
          </button>
          <button type="button" className="secondary-button" onClick={() => openView('settings')}>
            <Codicon name="gear" /> Open Settings
          </button>
        </div>
      )}
    </div>
  );
}
