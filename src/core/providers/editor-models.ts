import type { ModelFacts } from './model-facts.js';
import { ProviderError } from './types.js';

/** Why the engine alone cannot run VS Code's language models: they live in the editor's extension host. */
export const EDITOR_MODELS_ONLY_IN_VS_CODE = 'VS Code language models are only available inside VS Code; in the CLI choose another --provider.';

/** Said when VS Code offers no language model at all (the picker adds a full stop, a task what else to do). */
export const NO_EDITOR_MODELS = 'VS Code offers no language models. Install and sign in to an extension that provides them (GitHub Copilot Chat, for one)';

/**
 * What the editor tells about one of its language models (VS Code's `LanguageModelChat`), as the
 * engine reads it: the fields every version has, and the capabilities newer ones add.
 */
export interface EditorModelInfo {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  readonly maxInputTokens: number;
  readonly capabilities?: { readonly supportsImageToText?: boolean; readonly supportsToolCalling?: boolean };
}

/**
 * The facts of an editor model for the picker and for context management: its input limit is the
 * window (the API tells no output limit), images and tool calls where the editor says. No prices:
 * the extension that provides the model bills it (a subscription), not Smith per token.
 */
export function editorModelFacts(model: EditorModelInfo): ModelFacts {
  const name = [model.name || model.family, model.vendor].filter((part) => part !== '').join(' · ');
  return {
    id: model.id,
    ...(name !== '' ? { name } : {}),
    ...(Number.isInteger(model.maxInputTokens) && model.maxInputTokens > 0 ? { contextWindow: model.maxInputTokens } : {}),
    ...(model.capabilities?.supportsImageToText !== undefined ? { supportsImages: model.capabilities.supportsImageToText } : {}),
    ...(model.capabilities?.supportsToolCalling !== undefined ? { supportsTools: model.capabilities.supportsToolCalling } : {}),
  };
}

/**
 * The model a task asks for among those the editor offers: the one with that id, or the first when
 * no id is given. Throws a ProviderError naming the models there are when it is not among them, and
 * saying how to get one when there are none.
 */
export function chooseEditorModel<T extends EditorModelInfo>(models: readonly T[], wanted: string): T {
  if (models.length === 0) {
    throw new ProviderError(`${NO_EDITOR_MODELS}, or choose another provider in Smith's settings.`);
  }
  const id = wanted.trim();
  if (id === '') return models[0]!;
  const found = models.find((model) => model.id === id);
  if (found) return found;
  const offered = models.map((model) => model.id).join(', ');
  throw new ProviderError(`VS Code has no language model "${id}". The models it offers: ${offered}. Choose one in Smith's settings.`, 404);
}
