import type { AgentSkill } from './skill-catalog.js';

/**
 * Characters the skills list may take in the system prompt (Codex caps its list the same way):
 * a folder of ten thousand skills must not crowd out the task. Skills past it are named in a count.
 */
export const SKILL_LIST_BUDGET = 8_000;

/**
 * The system prompt's skills section: each offered skill's name and description, nothing more
 * (progressive disclosure: the instructions come with use_skill). Empty when none is offered.
 */
export function skillsPromptSection(skills: readonly AgentSkill[], budget = SKILL_LIST_BUDGET): string {
  if (skills.length === 0) return '';
  const lines: string[] = [];
  let used = 0;
  for (const skill of skills) {
    const line = `- ${skill.name}: ${skill.description}`;
    if (used + line.length + 1 > budget) break;
    lines.push(line);
    used += line.length + 1;
  }
  const left = skills.length - lines.length;
  const more = left > 0 ? `\n(${left} more skill${left === 1 ? ' is' : 's are'} installed but not listed here, for space.)` : '';
  return `# Skills\n\nSkills are instructions for particular tasks. When a task matches a skill's description, load the skill with use_skill before doing anything else and follow its instructions; it also lists the skill's files, which you can read with read_file and run with execute_command.\n\n${lines.join('\n')}${more}`;
}
