import { builtInSpec, type ToolHandler } from '../tool-kit/tool-spec.js';

/** new_task: continues the work in a fresh task that starts from a summary. */
export const newTaskTool: ToolHandler = {
  spec: builtInSpec({
    name: 'new_task',
    description:
      'Start a fresh task that continues this one, when the conversation has grown long or a clean context would help. The context you write is all the new task will know: include the goal, what is done, what remains, key decisions, and the relevant files.',
    params: [
      {
        name: 'context',
        required: true,
        description:
          'A structured summary: 1. Current work 2. Key technical concepts 3. Relevant files and code 4. Problem solving so far 5. Pending tasks and next steps.',
      },
    ],
    example: '<new_task>\n<context>1. Current work: ...\n2. Key technical concepts: ...\n3. Relevant files: ...\n4. Next steps: ...</context>\n</new_task>',
  }),
  async execute(params, context) {
    const answer = await context.approve({ summary: 'Start a new task with this context' });
    if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };
    return { kind: 'new_task', context: params.context!.trim() };
  },
};
