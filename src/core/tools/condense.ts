import { builtInSpec, type ToolHandler } from '../tool-kit/tool-spec.js';

/** condense: replaces the older conversation with the model's own summary (an event; the log keeps all). */
export const condenseTool: ToolHandler = {
  spec: builtInSpec({
    name: 'condense',
    description:
      'Replace the conversation so far with a detailed summary, to free context space in a long task. The summary replaces all earlier messages except the original task, so include everything needed to continue: the goal, what is done, key decisions, relevant files and code, errors met, and the next steps.',
    params: [
      {
        name: 'context',
        required: true,
        description: 'The summary: 1. Current work 2. Key technical concepts 3. Relevant files and code 4. Problem solving 5. Pending tasks and next steps.',
      },
    ],
    example: '<condense>\n<context>1. Current work: ...\n2. Key technical concepts: ...\n3. Relevant files: ...\n4. Next steps: ...</context>\n</condense>',
  }),
  async execute(params) {
    return { kind: 'condensed', summary: params.context!.trim() };
  },
};
