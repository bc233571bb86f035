import type { ApprovalPort } from '../ports.js';
import type { ShownApproval } from '../../shared/tool-details.js';

/**
 * The parent's approvals as the sub-agents of one call ask them: one question at a time (the
 * panel and the terminal show one), each naming the sub-agent that asks. A question waiting its
 * turn is dropped when its sub-agent is stopped.
 */
export class SubagentApprovals {
  private turn: Promise<void> = Promise.resolve();

  constructor(private readonly parent: ApprovalPort) {}

  /** The port one sub-agent asks through. */
  portFor(who: NonNullable<ShownApproval['subagent']>): ApprovalPort {
    return {
      ask: async (request, signal) => {
        const previous = this.turn;
        let done!: () => void;
        this.turn = new Promise<void>((resolve) => (done = resolve));
        try {
          await untilOrAborted(previous, signal);
          return await this.parent.ask({ ...request, subagent: who }, signal);
        } finally {
          done();
        }
      },
    };
  }
}

function untilOrAborted(wait: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    void wait.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}
