// Apart from task-id.ts, so that what needs only the rule (the CLI's small entry) does not load zod.
import * as z from './zod-config.js';
import { taskIdProblem } from './task-id.js';

/** The rule of task-id.ts as a schema, for messages that carry a task id. */
export const taskIdSchema = z.string().check(
  z.superRefine((value, context) => {
    const problem = taskIdProblem(value);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
  }),
);
