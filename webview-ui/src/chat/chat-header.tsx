import type { PlanAct } from '../../../src/shared/plan-act.js';
import type { PanelState, ProviderSettingsView, TaskView } from '../../../src/shared/protocol.js';
import { matchingProfile, profileChoice } from '../../../src/shared/api-profiles.js';
import { Codicon } from '../common/codicon.js';
import { useActions } from '../common/actions-context.js';
import { formatCost, formatTokens } from '../common/format.js';
import { useOptimistic } from '../common/use-optimistic.js';
import { ContextBar } from './context-bar.js';

const BUSY: ReadonlySet<TaskView['status']> = new Set(['running', 'awaiting_approval', 'awaiting_answer']);

/**
 * Plan/Act, the mode, and the task's usage and cost. Navigation (new task, history, MCP servers, settings)
 * lives in VS Code's view title bar and the editor tab's title bar, the platform's place for it.
 */
export function ChatHeader({ panel, task }: { panel: PanelState; task: TaskView | undefined }) {
  return (
    <header className="chat-header">
      <div className="header-row">
        <PlanActToggle mode={task?.mode ?? panel.mode} />
        <ModePicker modes={panel.modes} modeSlug={task?.modeSlug ?? panel.modeSlug} />
        {Object.keys(panel.settings.profiles ?? {}).length > 0 && <ProfilePicker settings={panel.settings} />}
      </div>
      {task !== undefined && <UsageLine task={task} />}
      {task?.context !== undefined && <ContextBar taskId={task.id} context={task.context} idle={!BUSY.has(task.status)} />}
    </header>
  );
}

function PlanActToggle({ mode }: { mode: PlanAct }) {
  const { request } = useActions();
  const [shown, choose] = useOptimistic(mode);
  const option = (value: PlanAct, label: string, hint: string) => (
    <button
      type="button"
      className={shown === value ? 'segment selected' : 'segment'}
      aria-pressed={shown === value}
      title={hint}
      onClick={() => shown !== value && choose(value, () => request({ type: 'setMode', mode: value }))}
    >
      {label}
    </button>
  );
  return (
    <div className="segmented" role="group" aria-label="Plan/Act">
      {option('plan', 'Plan', 'Plan: discuss and plan, no edits or commands')}
      {option('act', 'Act', 'Act: edit files and run commands')}
    </div>
  );
}

function ModePicker({ modes, modeSlug }: { modes: PanelState['modes']; modeSlug: string }) {
  const { request } = useActions();
  const [shown, choose] = useOptimistic(modeSlug);
  // The current mode stays selectable even if the list no longer offers it.
  const options: PanelState['modes'] = modes.some((s) => s.slug === shown) || shown === '' ? modes : [...modes, { slug: shown, name: shown }];
  // When to use each mode: the option's tooltip and accessible description, and the picker's for the chosen one.
  const current = options.find((s) => s.slug === shown)?.description;
  return (
    <select
      className="mode-picker"
      aria-label="Mode"
      title={current}
      value={shown}
      onChange={(event) => choose(event.target.value, () => request({ type: 'setModeSlug', modeSlug: event.target.value }))}
    >
      {options.map((s) => (
        <option key={s.slug} value={s.slug} title={s.description} aria-description={s.description}>
          {s.name}
        </option>
      ))}
    </select>
  );
}

/**
 * Switches the API profile in use (the provider settings it holds), as the Settings view's Save
 * would: the open task's next message goes to it.
 */
function ProfilePicker({ settings }: { settings: ProviderSettingsView }) {
  const { request } = useActions();
  const profiles = settings.profiles ?? {};
  const inUse = matchingProfile(profiles, settings) ?? '';
  const [shown, choose] = useOptimistic(inUse);
  const pick = (name: string) => {
    const profile = profiles[name];
    if (!profile) return;
    choose(name, () => request({ type: 'saveSettings', ...profileChoice(profile) }));
  };
  return (
    <select
      className="profile-picker"
      aria-label="API profile"
      title="The API profile in use: provider, model and its settings"
      value={shown}
      onChange={(event) => pick(event.target.value)}
    >
      {shown === '' && <option value="">Settings of no profile</option>}
      {Object.keys(profiles).map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </select>
  );
}

function UsageLine({ task }: { task: TaskView }) {
  const u = task.usage;
  const cached = u.cacheReadTokens + u.cacheWriteTokens > 0;
  return (
    <div className="usage-line muted small" role="group" aria-label="Usage">
      <span title={`Input tokens: ${u.inputTokens.toLocaleString()}`} className="usage-input">
        <Codicon name="arrow-up" />
        <span className="sr-only">Input tokens </span>
        {formatTokens(u.inputTokens)}
      </span>
      <span title={`Output tokens: ${u.outputTokens.toLocaleString()}`} className="usage-output">
        <Codicon name="arrow-down" />
        <span className="sr-only">Output tokens </span>
        {formatTokens(u.outputTokens)}
      </span>
      {cached && (
        <span title={`Cache: ${u.cacheReadTokens.toLocaleString()} read, ${u.cacheWriteTokens.toLocaleString()} written`} className="usage-cache">
          <Codicon name="database" />
          <span className="sr-only">Cache read and written </span>
          {formatTokens(u.cacheReadTokens)} / {formatTokens(u.cacheWriteTokens)}
        </span>
      )}
      {task.cost !== undefined && (
        <span className="cost" title="Cost of this task so far">
          {formatCost(task.cost)}
        </span>
      )}
    </div>
  );
}
