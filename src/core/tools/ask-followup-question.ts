import { parseQuestionOptions } from '../../shared/question-options.js';
import { builtInSpec, mistake, type ToolHandler } from '../tool-kit/tool-spec.js';

/** ask_followup_question: asks the user, optionally offering 2–5 answers to pick from. */
export const askFollowupQuestionTool: ToolHandler = {
  spec: builtInSpec({
    name: 'ask_followup_question',
    description:
      'Ask the user a question when you need information you cannot find with your tools. Use sparingly: prefer finding the answer yourself. Optionally offer 2 to 5 suggested answers.',
    params: [
      { name: 'question', required: true, description: 'A clear, specific question.' },
      {
        name: 'options',
        required: false,
        description: 'A JSON array of 2 to 5 suggested answers, e.g. ["Option 1", "Option 2"].',
      },
    ],
    example:
      '<ask_followup_question>\n<question>Which test framework should the new tests use?</question>\n<options>["vitest", "jest"]</options>\n</ask_followup_question>',
  }),
  async execute(params, context) {
    const options = parseQuestionOptions(params.options);
    if (!Array.isArray(options)) return mistake(options.problem);
    const answer = await context.host.questions.ask(params.question!, options, context.signal);
    // The log keeps the answers offered, as read here: the UIs show them from there and never read the parameter.
    const offered = options.length > 0 ? { options } : {};
    if (answer === undefined) {
      return {
        kind: 'result',
        output:
          'No user is available to answer (this is a non-interactive run). Proceed with your best judgement, state your assumptions, and continue the task.',
        details: { question: { answered: false, ...offered } },
      };
    }
    return { kind: 'result', output: `<answer>\n${answer}\n</answer>`, details: { question: { answered: true, ...offered } } };
  },
};
