import { useState } from 'react';
import { Codicon } from '../common/codicon.js';
import { useActions } from '../common/actions-context.js';

/** The end of a task whose run was cut off (the window was reloaded, Smith stopped): Resume continues it. */
export function InterruptedCard() {
  const { request, reportError } = useActions();
  const [resuming, setResuming] = useState(false);
  const resume = () => {
    setResuming(true);
    request({ type: 'retry' }).then(
      () => setResuming(false),
      (error: unknown) => {
        setResuming(false);
        reportError(error);
      },
    );
  };
  return (
    <div className="card interrupted-card" role="status">
      <div className="interrupted-text">
        <Codicon name="debug-pause" />
        <span>
          This task was interrupted before it finished (the window was reloaded or Smith stopped). Nothing is waiting for you; Resume picks it up where it
          stopped.
        </span>
      </div>
      <button type="button" className="secondary-button" onClick={resume} disabled={resuming}>
        <Codicon name="debug-continue" /> Resume
      </button>
    </div>
  );
}
