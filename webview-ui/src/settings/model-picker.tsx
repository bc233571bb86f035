import { useMemo, useState } from 'react';
import type { ModelChoice, ModelList, ProviderName } from '../../../src/shared/protocol.js';
import { usePendingRequest } from '../common/use-pending-request.js';
import { BusyButton } from '../common/busy-button.js';
import { formatDate, formatTokens } from '../common/format.js';
import { modelFactsText } from '../../../src/shared/model-facts-text.js';

/** The default model, or the one a mode uses instead. */
type ModelScope = 'default' | 'Plan mode' | 'Act mode';

/** The model field's label: "Default model", "Plan mode model", "Act mode model". */
function modelFieldLabel(scope: ModelScope): string {
  return scope === 'default' ? 'Default model' : `${scope} model`;
}

/** Rows shown at most; the search narrows the rest down. */
const SHOWN = 50;

/**
 * A model field with the provider's models to pick from: *Browse* asks the host for them (the
 * server's own list, or the catalogue), and typing filters them. Each shows its window, prices and
 * whether it takes images and reasons, where known. Any name can still be typed.
 */
export function ModelPicker({
  scope,
  value,
  onChange,
  provider,
  baseUrl,
  models,
  placeholder,
}: {
  /** Which model this is; each control's name says it, so no name is part of another field's. */
  scope: ModelScope;
  value: string;
  onChange: (model: string) => void;
  provider: ProviderName;
  baseUrl: string;
  /** The list the host holds, used when it is for this provider and server. */
  models: ModelList | undefined;
  placeholder?: string;
}) {
  const label = modelFieldLabel(scope);
  const [open, setOpen] = useState(false);
  const [loading, send] = usePendingRequest<'listModels'>();
  const list = models !== undefined && models.provider === provider && models.baseUrl === baseUrl.trim() ? models : undefined;
  const matching = useMemo(() => {
    const needle = value.trim().toLowerCase();
    const all = list?.models ?? [];
    return (needle === '' || all.some((m) => m.id === value) ? all : all.filter((m) => m.id.toLowerCase().includes(needle))).slice(0, SHOWN);
  }, [list, value]);

  const browse = () => {
    setOpen(true);
    if (list !== undefined) return;
    send('listModels', { type: 'listModels', provider, baseUrl: baseUrl.trim() });
  };

  return (
    <div className="field model-picker">
      <span className="field-label">{label}</span>
      <div className="model-input-row">
        <input
          type="text"
          aria-label={label}
          value={value}
          placeholder={placeholder}
          spellCheck={false}
          onChange={(event) => onChange(event.target.value)}
          onFocus={() => list !== undefined && setOpen(true)}
        />
        <BusyButton icon="list-flat" busy={loading !== undefined} expanded={open} label={`Browse: ${scope}`} onClick={() => (open ? setOpen(false) : browse())}>
          Browse
        </BusyButton>
      </div>
      {open && list !== undefined && (
        <div className="model-list" role="listbox" aria-label={`Choices: ${scope}`}>
          {list.error !== undefined && <p className="muted small">{listNote(list)}</p>}
          {matching.length === 0 && list.error === undefined && <p className="muted small">No model matches; the name you type is used as it is.</p>}
          {matching.map((model) => (
            <button
              key={model.id}
              type="button"
              role="option"
              aria-selected={model.id === value}
              className={model.id === value ? 'model-option selected' : 'model-option'}
              onClick={() => {
                onChange(model.id);
                setOpen(false);
              }}
            >
              <span className="model-id">{model.id}</span>
              <span className="model-facts muted small">{factsOf(model)}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** Why the list is not the server's own, fresh one. */
function listNote(list: ModelList): string {
  if (list.source === 'cache')
    return `The server did not answer (${list.error}); these are the models it listed ${list.fetchedAt !== undefined ? `on ${formatDate(list.fetchedAt)}` : 'before'}.`;
  if (list.source === 'catalogue' && list.models.length > 0) return `The server did not list its models (${list.error}); these come from Smith's catalogue.`;
  return list.error ?? '';
}

/** "200k · $3 / $15 per M · images · tools · reasoning", with what is known. */
function factsOf(model: ModelChoice): string {
  return modelFactsText(model, formatTokens);
}
