import type { QuestionPort } from '../ports.js';

// The questions the loop asks before going on past something that stopped it. Nobody to ask
// (no answer) means no.

/** Whether to go on past a limit, with another allowance of the same size. */
export async function mayGoOnPastLimit(questions: QuestionPort, reason: string, signal: AbortSignal): Promise<boolean> {
  const answer = await questions.ask(
    `${reason.replace(/^Stopped/, 'The task reached a limit:')} Continue with the same allowance again?`,
    ['Continue', 'Stop'],
    signal,
  );
  return answer !== undefined && /^\s*(continue|c|yes|y)\b/i.test(answer);
}

/** Whether the model may go on repeating a call. */
export async function mayGoOnRepeating(questions: QuestionPort, question: string, signal: AbortSignal): Promise<boolean> {
  const answer = await questions.ask(question, ['Let it go on', 'Stop the task'], signal);
  return answer !== undefined && /^\s*(let it go on|go on|continue|c|yes|y)\b/i.test(answer);
}
