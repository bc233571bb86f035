import { useState, type FormEvent } from 'react';
import type { ProviderName, ProviderSettingsView } from '../../../src/shared/protocol.js';
import { IconButton } from '../common/icon-button.js';
import { useActions } from '../common/actions-context.js';

const PROVIDERS: readonly { value: ProviderName; label: string }[] = [
  { value: 'anthropic', label: 'Anthropic' },
  { value: 'openai', label: 'OpenAI' },
  { value: 'openai-compatible', label: 'OpenAI-compatible' },
  { value: 'gemini', label: 'Google Gemini' },
];

type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'failed'; message: string };

/** Provider settings. The key is write-only: an empty field keeps the stored key. */
export function SettingsView({ settings, onBack }: { settings: ProviderSettingsView; onBack: () => void }) {
  // Outside the keyed form: a successful save changes the host's values and so remounts the form.
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });
  // Keyed on the host's values so a snapshot with other settings resets the form.
  return <SettingsForm key={`${settings.provider}\n${settings.model}\n${settings.baseUrl}\n${settings.hasApiKey}`} settings={settings} onBack={onBack} save={save} setSave={setSave} />;
}

function SettingsForm({ settings, onBack, save, setSave }: {
  settings: ProviderSettingsView;
  onBack: () => void;
  save: SaveState;
  setSave: (save: SaveState) => void;
}) {
  const { request } = useActions();
  const [provider, setProvider] = useState<ProviderName>(settings.provider);
  const [model, setModel] = useState(settings.model);
  const [baseUrl, setBaseUrl] = useState(settings.baseUrl);
  const [apiKey, setApiKey] = useState('');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSave({ kind: 'saving' });
    const key = apiKey.trim();
    request({ type: 'saveSettings', provider, model: model.trim(), baseUrl: baseUrl.trim(), ...(key === '' ? {} : { apiKey: key }) }).then(
      () => {
        setApiKey('');
        setSave({ kind: 'saved' });
      },
      (error: unknown) => setSave({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  };

  const keyPlaceholder = settings.hasApiKey ? 'A key is stored; leave empty to keep it' : 'No key stored; paste one';
  return (
    <div className="page">
      <header className="page-header">
        <IconButton icon="arrow-left" label="Back to chat" onClick={onBack} />
        <h2>Settings</h2>
      </header>
      <form className="settings-form" onSubmit={onSubmit}>
        <label className="field">
          <span className="field-label">Provider</span>
          <select value={provider} onChange={(event) => setProvider(event.target.value as ProviderName)}>
            {PROVIDERS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Model</span>
          <input type="text" value={model} onChange={(event) => setModel(event.target.value)} spellCheck={false} />
        </label>
        <label className="field">
          <span className="field-label">Base URL</span>
          <input
            type="url"
            value={baseUrl}
            placeholder={provider === 'openai-compatible' ? 'http://localhost:11434/v1' : "Leave empty for the provider's default"}
            onChange={(event) => setBaseUrl(event.target.value)}
            spellCheck={false}
          />
        </label>
        <label className="field">
          <span className="field-label">API key</span>
          <input type="password" value={apiKey} placeholder={keyPlaceholder} autoComplete="off" onChange={(event) => setApiKey(event.target.value)} />
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
    </div>
  );
}
