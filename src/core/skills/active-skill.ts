import type { SkillLoaded } from '../log/conversation-events.js';
import type { TaskEvent } from '../log/events.js';

/**
 * The Agent Skill in force at the end of the log: the last one loaded, unless the user wrote
 * since (a new request may need other tools) or the task completed. Read from the log, so a
 * resumed task keeps its skill and its limits.
 */
export function activeSkill(events: readonly TaskEvent[]): SkillLoaded | undefined {
  let active: SkillLoaded | undefined;
  for (const event of events) {
    if (event.type === 'skill_loaded') active = event;
    else if (event.type === 'user_message' || event.type === 'task_completed' || event.type === 'task_started') active = undefined;
  }
  return active;
}
