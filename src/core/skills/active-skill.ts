import type { SkillLoaded } from '../log/conversation-events.js';
import type { TaskEvent } from '../log/events.js';
import type { TaskLog } from '../log/task-log.js';

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

/**
 * Carries the skill in force at the end of `events` (another task's log) into `log`, as a
 * `skill_loaded` naming where it came from: a task a new_task hand-over starts, or a sub-agent
 * started while the skill is active, stays within its allowed-tools. Nothing when no skill is in force.
 */
export function carrySkill(events: readonly TaskEvent[], log: TaskLog, fromTaskId: string): void {
  const skill = activeSkill(events);
  if (!skill) return;
  const { seq: _seq, ts: _ts, inheritedFrom: _from, ...loaded } = skill;
  log.append({ ...loaded, inheritedFrom: fromTaskId });
}
