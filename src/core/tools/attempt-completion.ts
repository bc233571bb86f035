import { builtInSpec, type ToolHandler } from '../tool-kit/tool-spec.js';

/** attempt_completion: ends the task with a result the user reads. */
export const attemptCompletionTool: ToolHandler = {
  spec: builtInSpec({
    name: 'attempt_completion',
    description:
      'Present the result of the task once you have confirmed every earlier tool use succeeded. The result must be final: do not end with a question or an offer of more help. Optionally give a command that shows the result (e.g. `open index.html`); do not use commands like echo or cat.',
    params: [
      { name: 'result', required: true, description: 'What was done, in a few sentences.' },
      { name: 'command', required: false, description: 'A command the user may run to see the result.' },
    ],
    example: '<attempt_completion>\n<result>Added input validation to the signup form and a test for it.</result>\n</attempt_completion>',
  }),
  async execute(params) {
    const command = params.command?.trim();
    return { kind: 'completed', result: params.result!.trim(), ...(command ? { command } : {}) };
  },
};
