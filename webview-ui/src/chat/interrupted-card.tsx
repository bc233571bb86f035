import { Codicon } from '../common/codicon.js';
import { usePendingRequest } from '../common/use-pending-request.js';
import { useTaskRef } from '../common/task-context.js';

/** The end of a task whose run was cut off (the window was reloaded, Smith stopped): Resume continues it. */
export function InterruptedCard() {
  const [pending, send] = usePendingRequest<'resume'>();
  const taskRef = useTaskRef();
  return (
    <div className="card interrupted-card" role="status">
      <div className="interrupted-text">
        <Codicon name="debug-pause" />
        <span>
          This task was interrupted before it finished (the window was reloaded or Smith stopped). Nothing is waiting for you; Resume picks it up where it
          stopped.
        </span>
      </div>
      <button type="button" className="secondary-button" onClick={() => send('resume', { type: 'retry', ...taskRef })} disabled={pending !== undefined}>
        <Codicon name="debug-continue" /> Resume
      </button>
    </div>
  );
}
