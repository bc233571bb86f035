import type { PanelState } from '../../../src/shared/protocol.js';
import { useOptimistic } from '../common/use-optimistic.js';
import { useActions } from '../common/actions-context.js';

type SkillList = NonNullable<PanelState['agentSkills']>;
type SkillEntry = SkillList['skills'][number];

/**
 * The Agent Skills Smith found (SKILL.md folders in .smith/skills, .claude/skills, ~/.claude/skills
 * and the other agents' folders), each with the folder it comes from, a toggle (by name), and, when
 * it is not offered to the model, why.
 */
export function SkillsSection({ skills: { skills, notes } }: { skills: SkillList }) {
  return (
    <section className="rules-section" aria-labelledby="skills-title">
      <h3 id="skills-title">Skills</h3>
      {skills.length === 0 ? (
        <p className="muted small">
          No skills found. Smith reads SKILL.md folders in .smith/skills, .claude/skills, .agents/skills, .cline/skills, .roo/skills and your own
          (~/.claude/skills and more; docs/modes-skills-agents.md).
        </p>
      ) : (
        <ul className="rules-list" aria-label="Skills">
          {skills.map((skill) => (
            <SkillToggle key={`${skill.location}/${skill.name}`} skill={skill} />
          ))}
        </ul>
      )}
      {notes.map((note) => (
        <p key={note} className="muted small">
          Not read: {note}
        </p>
      ))}
    </section>
  );
}

function SkillToggle({ skill }: { skill: SkillEntry }) {
  const { request } = useActions();
  const [on, choose] = useOptimistic(!skill.disabled);
  return (
    <li className="rule-item">
      <label title={skill.description}>
        <input
          type="checkbox"
          checked={on}
          aria-label={`${skill.name} (${skill.location})`}
          onChange={(event) => choose(event.target.checked, () => request({ type: 'setSkillEnabled', name: skill.name, enabled: event.target.checked }))}
        />{' '}
        <span className="mono">{skill.name}</span> <span className="muted small">{skill.location}</span>
      </label>
      {skill.description !== undefined && <span className="muted small rule-note">{skill.description}</span>}
      {skill.note !== undefined && <span className="muted small rule-note">{skill.note}</span>}
    </li>
  );
}
