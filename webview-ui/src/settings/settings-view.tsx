import { useState, type FormEvent } from 'react';
import {
  REASONING_EFFORTS,
  type ApiProfile,
  type ModelList,
  type PanelState,
  type ProviderName,
  type ProviderSettingsView,
  type ProviderSetupField,
  type ReasoningEffortName,
  type ToolProtocolName,
} from '../../../src/shared/protocol.js';
import { missingSetup, modelAfterProviderChange } from '../../../src/shared/provider-setup.js';
import { matchingProfile, profileChoice } from '../../../src/shared/api-profiles.js';
import { needsModel, PROVIDERS, providerEntry } from '../../../src/shared/providers.js';
import { PageHeader } from '../common/page-header.js';
import { useActions } from '../common/actions-context.js';
import { ModelPicker } from './model-picker.js';
import { ReturnPendingTask } from '../common/return-pending-task.js';
import { RulesSection } from './rules-section.js';
import { SkillsSection } from './skills-section.js';

const PROVIDER_CHOICES: readonly { value: ProviderName; label: string }[] = PROVIDERS.map((p) => ({ value: p.id, label: p.label }));

/** What the Base URL field suggests: the provider's own address, or an example where the user must give one. */
function baseUrlPlaceholder(provider: ProviderName): string {
  const entry = providerEntry(provider);
  if (entry.api === 'azure-openai') return 'https://my-resource.openai.azure.com';
  if (entry.api === 'vscode-lm') return 'Not used: VS Code reaches its models itself';
  if (entry.baseUrlRequired) return 'http://localhost:8080/v1';
  return entry.baseUrl ? `${entry.baseUrl} (leave empty for this)` : "Leave empty for the provider's default";
}

const TOOL_PROTOCOLS: readonly { value: ToolProtocolName; label: string }[] = [
  { value: 'xml', label: 'XML (works with every model)' },
  { value: 'native', label: 'Native tool calling' },
];

type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'failed'; message: string };

/** Provider settings. The key is write-only: an empty field keeps the stored key. */
export function SettingsView({
  settings,
  models,
  rules,
  agentSkills,
  pendingTask,
  onBack,
}: {
  settings: ProviderSettingsView;
  models?: ModelList;
  rules?: PanelState['rules'];
  agentSkills?: PanelState['agentSkills'];
  pendingTask?: string;
  onBack: () => void;
}) {
  // Outside the keyed form: a successful save changes the host's values and so remounts the form.
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });
  // Keyed on the host's values so a snapshot with other settings resets the form.
  const key = [
    settings.provider,
    settings.model,
    settings.baseUrl,
    settings.toolProtocol,
    settings.hasApiKey,
    settings.planModel,
    settings.actModel,
    settings.planProfile,
    settings.actProfile,
    settings.reasoningEffort,
    JSON.stringify(settings.profiles ?? {}),
  ].join('\n');
  return (
    <SettingsForm
      key={key}
      settings={settings}
      models={models}
      rules={rules}
      agentSkills={agentSkills}
      pendingTask={pendingTask}
      onBack={onBack}
      save={save}
      setSave={setSave}
    />
  );
}

/** How the setup's missing pieces are named to the user. */
const MISSING_LABELS: Record<ProviderSetupField, string> = { apiKey: 'an API key', baseUrl: "the server's address (Base URL)", model: 'a model' };

function SettingsForm({
  settings,
  models,
  rules,
  agentSkills,
  pendingTask,
  onBack,
  save,
  setSave,
}: {
  settings: ProviderSettingsView;
  models: ModelList | undefined;
  rules: PanelState['rules'];
  agentSkills: PanelState['agentSkills'];
  pendingTask: string | undefined;
  onBack: () => void;
  save: SaveState;
  setSave: (save: SaveState) => void;
}) {
  const { request } = useActions();
  const [provider, setProvider] = useState<ProviderName>(settings.provider);
  const [model, setModel] = useState(settings.model);
  const [baseUrl, setBaseUrl] = useState(settings.baseUrl);
  const [toolProtocol, setToolProtocol] = useState<ToolProtocolName>(settings.toolProtocol);
  const [apiKey, setApiKey] = useState('');
  const [planModel, setPlanModel] = useState(settings.planModel ?? '');
  const [actModel, setActModel] = useState(settings.actModel ?? '');
  const [planProfile, setPlanProfile] = useState(settings.planProfile ?? '');
  const [actProfile, setActProfile] = useState(settings.actProfile ?? '');
  const [reasoningEffort, setReasoningEffort] = useState<ReasoningEffortName>(settings.reasoningEffort ?? 'off');
  const [profileName, setProfileName] = useState('');
  const profiles = settings.profiles ?? {};
  const activeProfile = matchingProfile(profiles, settings);

  const applyProfile = (name: string) => {
    const profile = profiles[name];
    if (!profile) return;
    const choice = profileChoice(profile);
    setProvider(choice.provider);
    setModel(choice.model);
    setBaseUrl(choice.baseUrl);
    setToolProtocol(choice.toolProtocol);
    setPlanModel(choice.planModel ?? '');
    setActModel(choice.actModel ?? '');
    setReasoningEffort(choice.reasoningEffort ?? 'off');
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSave({ kind: 'saving' });
    const key = apiKey.trim();
    request({
      type: 'saveSettings',
      provider,
      model: model.trim(),
      baseUrl: baseUrl.trim(),
      toolProtocol,
      planModel: planModel.trim(),
      actModel: actModel.trim(),
      planProfile,
      actProfile,
      reasoningEffort,
      ...(key === '' ? {} : { apiKey: key }),
      ...(profileName.trim() === '' ? {} : { saveAsProfile: profileName.trim() }),
    }).then(
      () => {
        setApiKey('');
        setProfileName('');
        setSave({ kind: 'saved' });
      },
      (error: unknown) => setSave({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  };

  // Judged on the form as edited, so choosing openai-compatible no longer asks for a key.
  const missing =
    settings.missing === undefined
      ? []
      : missingSetup({ provider, model, baseUrl }, apiKey.trim() !== '' || (provider === settings.provider && settings.hasApiKey));
  const keyPlaceholder =
    providerEntry(provider).api === 'vscode-lm'
      ? 'Not used: the extension that provides the model signs you in'
      : settings.hasApiKey
        ? 'A key is stored; leave empty to keep it'
        : 'No key stored; paste one';
  return (
    <div className="page">
      <PageHeader title="Settings" onBack={onBack} />
      {(pendingTask !== undefined || missing.length > 0) && (
        <div className="setup-note">
          {/* Announced: a task sent before the setup brought the user here, maybe without looking at
              the side bar (alert); otherwise the page's own explanation, told as it changes (status). */}
          <div role={pendingTask !== undefined ? 'alert' : 'status'}>
            {missing.length > 0 && (
              <p>
                To run tasks Smith needs {missing.map((field) => MISSING_LABELS[field]).join(' and ')} for the provider below. Pick the provider you use; for a
                server not in the list choose OpenAI-compatible and enter its address.
              </p>
            )}
            {pendingTask !== undefined && (
              <p>
                Your task starts as soon as this is saved, whichever view is open then: <q className="pending-task">{pendingTask}</q>
              </p>
            )}
          </div>
          {pendingTask !== undefined && <ReturnPendingTask />}
        </div>
      )}
      <form className="settings-form" onSubmit={onSubmit}>
        {Object.keys(profiles).length > 0 && (
          <label className="field">
            <span className="field-label">Fill from a profile</span>
            <select aria-label="Fill from a profile" value="" onChange={(event) => applyProfile(event.target.value)}>
              <option value="">
                {activeProfile !== undefined ? `In use: ${activeProfile} (pick one to fill the form)` : 'Pick a profile to fill the form'}
              </option>
              {Object.keys(profiles).map((name) => (
                <option key={name} value={name}>
                  {profileLabel(name, profiles[name]!)}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="field">
          <span className="field-label">Provider</span>
          <select
            aria-label="Provider"
            value={provider}
            onChange={(event) => {
              const next = event.target.value as ProviderName;
              setModel(modelAfterProviderChange(model, provider, next));
              setProvider(next);
            }}
          >
            {PROVIDER_CHOICES.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
        <ModelPicker
          scope="default"
          value={model}
          onChange={setModel}
          provider={provider}
          baseUrl={baseUrl}
          models={models}
          {...(needsModel(provider) ? {} : { placeholder: 'Empty: the first model VS Code offers' })}
        />
        <label className="field">
          <span className="field-label">Base URL</span>
          <input
            type="url"
            value={baseUrl}
            placeholder={baseUrlPlaceholder(provider)}
            onChange={(event) => setBaseUrl(event.target.value)}
            spellCheck={false}
          />
        </label>
        <div className="field">
          <label className="field-label" htmlFor="tool-protocol">
            Tool protocol
          </label>
          <select
            id="tool-protocol"
            value={toolProtocol}
            onChange={(event) => setToolProtocol(event.target.value as ToolProtocolName)}
            aria-describedby="tool-protocol-hint"
          >
            {TOOL_PROTOCOLS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
          <span id="tool-protocol-hint" className="field-hint muted small">
            Native uses the provider's own tool calls; the model must support them.
          </span>
        </div>
        <details className="field per-mode-models" open={planModel !== '' || actModel !== '' || planProfile !== '' || actProfile !== ''}>
          <summary>A different model or profile per mode</summary>
          {planProfile === '' && (
            <ModelPicker
              scope="Plan mode"
              value={planModel}
              onChange={setPlanModel}
              provider={provider}
              baseUrl={baseUrl}
              models={models}
              placeholder="Same as the default model"
            />
          )}
          {actProfile === '' && (
            <ModelPicker
              scope="Act mode"
              value={actModel}
              onChange={setActModel}
              provider={provider}
              baseUrl={baseUrl}
              models={models}
              placeholder="Same as the default model"
            />
          )}
          {(Object.keys(profiles).length > 0 || planProfile !== '' || actProfile !== '') && (
            <>
              <ModeProfileSelect mode="Plan" value={planProfile} onChange={setPlanProfile} profiles={profiles} />
              <ModeProfileSelect mode="Act" value={actProfile} onChange={setActProfile} profiles={profiles} />
            </>
          )}
        </details>
        <label className="field">
          <span className="field-label">Reasoning effort</span>
          <select aria-label="Reasoning effort" value={reasoningEffort} onChange={(event) => setReasoningEffort(event.target.value as ReasoningEffortName)}>
            {REASONING_EFFORTS.map((effort) => (
              <option key={effort} value={effort}>
                {effort === 'off' ? "Off (the model's default)" : effort[0]!.toUpperCase() + effort.slice(1)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">API key</span>
          <input type="password" value={apiKey} placeholder={keyPlaceholder} autoComplete="off" onChange={(event) => setApiKey(event.target.value)} />
        </label>
        <label className="field">
          <span className="field-label">Keep as a new profile named</span>
          <input
            type="text"
            value={profileName}
            placeholder="Optional: a name to keep these settings under"
            onChange={(event) => setProfileName(event.target.value)}
            spellCheck={false}
          />
        </label>
        <div className="button-row">
          <button type="submit" className="primary-button" disabled={save.kind === 'saving'}>
            Save
          </button>
          <span role="status" className={save.kind === 'failed' ? 'error-text' : 'muted'}>
            {save.kind === 'saved' ? 'Saved.' : save.kind === 'failed' ? save.message : ''}
          </span>
        </div>
      </form>
      {rules !== undefined && <RulesSection rules={rules} />}
      {agentSkills !== undefined && <SkillsSection skills={agentSkills} />}
    </div>
  );
}

/** Picks the API profile a mode runs with (its provider, model and key); none: the settings above. */
function ModeProfileSelect({
  mode,
  value,
  onChange,
  profiles,
}: {
  mode: 'Plan' | 'Act';
  value: string;
  onChange: (name: string) => void;
  profiles: NonNullable<ProviderSettingsView['profiles']>;
}) {
  const missing = value !== '' && !Object.hasOwn(profiles, value);
  return (
    <label className="field">
      <span className="field-label">{mode} mode profile</span>
      <select aria-label={`${mode} mode profile`} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">None: the settings above</option>
        {Object.keys(profiles).map((name) => (
          <option key={name} value={name}>
            {profileLabel(name, profiles[name]!)}
          </option>
        ))}
        {missing && (
          <option value={value}>
            {value} (not found: {mode} mode uses the settings above)
          </option>
        )}
      </select>
    </label>
  );
}

/** A profile as the lists name it: its name, provider and model. */
function profileLabel(name: string, profile: ApiProfile): string {
  return `${name} (${providerEntry(profile.provider).label}${profile.model ? `, ${profile.model}` : ''})`;
}
