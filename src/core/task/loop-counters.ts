import type { TaskEvent } from '../log/events.js';

/** What the loop's limits count, as far as the log tells it. */
interface LoopCounters {
  /** Model requests since the counters last started again. */
  readonly requests: number;
  /** Responses in a row that were the model's mistake (no tool, an unknown tool, a bad call). */
  readonly consecutiveMistakes: number;
  /** Calls auto-approved since the user was last asked (the policy's cap then asks again). */
  readonly autoApprovalsInARow: number;
}

/**
 * Derives the loop's counters from the log, so a task resumed after a crash, a reload or a cancel
 * goes on counting where it stopped instead of starting afresh. They start again where the user
 * spoke (`user_message`: new guidance), where a run ended for good (`task_completed`,
 * `new_task_requested`) and where the loop stopped with an error (a limit reached: running again
 * is the user's decision to give it another full allowance). Not at `task_resumed` or
 * `task_aborted`: the task picks up where it was.
 *
 * A response is a mistake when it is followed by `no_tool_used` or a `tool_error` marked as the
 * model's mistake; a response whose calls ran without one resets the run of mistakes.
 */
export function loopCounters(events: readonly TaskEvent[]): LoopCounters {
  let requests = 0;
  let mistakes = 0;
  let autoApprovals = 0;
  // The response being followed: did it call a tool, was any of it a mistake.
  let turn: { tool: boolean; mistake: boolean } | undefined;
  const closeTurn = () => {
    if (turn?.mistake) mistakes++;
    else if (turn?.tool) mistakes = 0;
    turn = undefined;
  };
  for (const event of events) {
    switch (event.type) {
      case 'request_started':
        closeTurn();
        requests++;
        break;
      case 'model_response':
        closeTurn();
        turn = { tool: false, mistake: false };
        break;
      case 'tool_requested':
        if (turn) turn.tool = true;
        break;
      case 'tool_auto_approved':
        if (event.rule === undefined) autoApprovals++;
        break;
      case 'approval_asked':
        autoApprovals = 0;
        break;
      case 'no_tool_used':
        if (turn) turn.mistake = true;
        break;
      case 'tool_error':
        if (turn && event.mistake) turn.mistake = true;
        break;
      case 'task_started':
      case 'user_message':
      case 'task_completed':
      case 'new_task_requested':
      case 'error':
        closeTurn();
        requests = 0;
        mistakes = 0;
        autoApprovals = 0;
        break;
      default:
        break;
    }
  }
  closeTurn();
  return { requests, consecutiveMistakes: mistakes, autoApprovalsInARow: autoApprovals };
}
