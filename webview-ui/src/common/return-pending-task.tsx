import { useActions } from './actions-context.js';

/** Takes the task waiting for the setup back into the Task box, so it does not start by itself (to change it, or to drop it). */
export function ReturnPendingTask() {
  const { send } = useActions();
  return (
    <button type="button" className="link-button" onClick={() => send({ type: 'returnPendingTask' })}>
      Put it back in the Task box
    </button>
  );
}
