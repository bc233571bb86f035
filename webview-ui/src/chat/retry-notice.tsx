import { useEffect, useState } from 'react';
import { retryText } from '../../../src/shared/retry-text.js';
import type { UiRetryMessage } from '../../../src/shared/ui-messages.js';
import { useActions } from '../common/actions-context.js';
import { Codicon } from '../common/codicon.js';
import { useTaskRef } from '../common/task-context.js';

/**
 * A failed request about to be made again. While it is the task's latest step, the wait counts
 * down and Cancel stops the task instead of waiting; afterwards it stays a line in the history.
 */
export function RetryNotice({ retry, waiting }: { retry: UiRetryMessage; waiting: boolean }) {
  const { send } = useActions();
  const taskRef = useTaskRef();
  const left = useSecondsUntil(retry.ts + retry.delayMs, waiting);
  return (
    <div className="notice notice-retry" role="status" data-attempt={retry.attempt}>
      <Codicon name="sync" spin={waiting} />
      <span>{waiting ? retryText(retry, left) : retryText(retry)}</span>
      {waiting && (
        <button type="button" className="link-button retry-cancel" onClick={() => send({ type: 'cancelTask', ...taskRef })}>
          Cancel
        </button>
      )}
    </div>
  );
}

/** Whole seconds until `deadline` (epoch ms), ticking once a second while `active`. */
function useSecondsUntil(deadline: number, active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}
