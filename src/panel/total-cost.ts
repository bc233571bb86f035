import type { CostShare } from '../core/log/total-cost-limit.js';
import type { TaskEnvironment } from '../core/session/task-environment.js';

/**
 * A task's environment whose tasks (the task, its sub-agents, the tasks it hands over to) spend
 * from the panel's total cost limit through `share`; disposing of it takes the task out of the sum.
 */
export function countedEnvironment(environment: TaskEnvironment, share: CostShare): TaskEnvironment {
  return {
    ...environment,
    options: { ...environment.options, sharedCosts: share },
    dispose: async () => {
      share.leave();
      await environment.dispose();
    },
  };
}
