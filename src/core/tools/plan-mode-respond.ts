import { builtInSpec, type ToolHandler } from '../tool-kit/tool-spec.js';

/** plan_mode_respond: in Plan mode, talks with the user about the plan. */
export const planModeRespondTool: ToolHandler = {
  spec: builtInSpec({
    name: 'plan_mode_respond',
    description:
      'Plan mode only: respond to the user with your questions, findings or plan, and wait for their reply. Use this after you have gathered enough context (with the read tools) to propose a concrete plan. The user switches to Act mode when the plan is agreed.',
    params: [{ name: 'response', required: true, description: 'Your message to the user: a plan, findings, or questions.' }],
    example: '<plan_mode_respond>\n<response>I propose three steps: 1. ... 2. ... 3. ... Does this match what you want?</response>\n</plan_mode_respond>',
  }),
  async execute(params, context) {
    const reply = await context.host.questions.ask(params.response!, [], context.signal);
    // Without a user to reply (headless runs), the plan itself is the run's result.
    if (reply === undefined) return { kind: 'completed', result: params.response!.trim() };
    return { kind: 'result', output: `<user_message>\n${reply}\n</user_message>`, details: { question: { answered: true } } };
  },
};
