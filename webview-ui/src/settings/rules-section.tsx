import type { PanelState } from '../../../src/shared/protocol.js';
import { useOptimistic } from '../common/use-optimistic.js';
import { useActions } from '../common/actions-context.js';

type Rule = NonNullable<PanelState['rules']>[number];

/**
 * The rules files Smith found (its own, and other agents': .clinerules, .cursorrules, CLAUDE.md, …),
 * each with a toggle and, when it does not apply now, why.
 */
export function RulesSection({ rules }: { rules: readonly Rule[] }) {
  return (
    <section className="rules-section" aria-labelledby="rules-title">
      <h3 id="rules-title">Rules files</h3>
      {rules.length === 0 ? (
        <p className="muted small">
          No rules files found. Smith reads .smithrules, AGENTS.md, CLAUDE.md, .clinerules, .cursorrules, .windsurfrules and more (docs/context.md).
        </p>
      ) : (
        <ul className="rules-list">
          {rules.map((rule) => (
            <RuleToggle key={rule.label} rule={rule} />
          ))}
        </ul>
      )}
    </section>
  );
}

function RuleToggle({ rule }: { rule: Rule }) {
  const { request } = useActions();
  const [on, choose] = useOptimistic(!rule.disabled);
  return (
    <li className="rule-item">
      <label>
        <input
          type="checkbox"
          checked={on}
          onChange={(event) => choose(event.target.checked, () => request({ type: 'setRuleEnabled', label: rule.label, enabled: event.target.checked }))}
        />{' '}
        <span className="mono">{rule.label}</span>
      </label>
      {rule.note !== undefined && <span className="muted small rule-note">{rule.note}</span>}
    </li>
  );
}
