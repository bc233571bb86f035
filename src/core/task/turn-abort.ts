/** The reason a request is stopped when the user sends a message while the model answers. */
class SteerRequested extends Error {
  constructor() {
    super('a new message was sent');
  }
}

/**
 * The abort signal of one model request: it follows the task's (Cancel stops everything), and a
 * steer stops only the request, so the loop goes on with the user's new message.
 */
export class TurnAbort {
  private current: AbortController | undefined;

  /** Starts a request under `task`; `end` when the request is over. */
  begin(task: AbortSignal): { readonly signal: AbortSignal; end(): void } {
    const controller = new AbortController();
    const follow = () => controller.abort(task.reason);
    if (task.aborted) follow();
    else task.addEventListener('abort', follow, { once: true });
    this.current = controller;
    return {
      signal: controller.signal,
      end: () => {
        task.removeEventListener('abort', follow);
        if (this.current === controller) this.current = undefined;
      },
    };
  }

  /** Stops the request in flight for a steer; false when none is (a tool runs: the message waits for it). */
  steer(): boolean {
    if (!this.current || this.current.signal.aborted) return false;
    this.current.abort(new SteerRequested());
    return true;
  }
}

/** True when the request was stopped by a steer (not by Cancel). */
export function wasSteered(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof SteerRequested;
}

/** How a stop by the user reads in the log: "cancelled" or "a new message was sent". */
export function userStopReason(signal: AbortSignal): string {
  return signal.reason instanceof SteerRequested ? signal.reason.message : 'cancelled';
}
