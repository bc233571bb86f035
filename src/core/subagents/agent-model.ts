import type { ApiProvider } from '../providers/types.js';

/** The newest Claude model of each family an agent file's `model:` may name. */
const CLAUDE_FAMILIES: Readonly<Record<string, string>> = { sonnet: 'claude-sonnet-4-5', opus: 'claude-opus-4-5', haiku: 'claude-haiku-4-5' };

/**
 * The model an agent's `model:` asks for, on the parent's provider: absent or `inherit`, the
 * parent's own (the model of its current mode); `sonnet`, `opus`, `haiku`, that family's newest
 * model when the provider is Anthropic's API, else the parent's (the note says so); any other
 * text, that model id on the main provider (`withModel`). Without `withModel`, the parent's.
 */
export function agentProvider(
  model: string | undefined,
  parent: ApiProvider,
  withModel: ((modelId: string) => ApiProvider) | undefined,
): { readonly provider: ApiProvider; readonly note?: string } {
  if (model === undefined || model === 'inherit') return { provider: parent };
  const family = CLAUDE_FAMILIES[model.toLowerCase()];
  if (family !== undefined) {
    if (parent.modelId.toLowerCase().includes(model.toLowerCase())) return { provider: parent };
    if (parent.id !== 'anthropic' || !withModel)
      return { provider: parent, note: `model "${model}" names a Claude model; ${parent.id} runs it with the task's model ${parent.modelId}` };
    return { provider: withModel(family) };
  }
  if (model === parent.modelId) return { provider: parent };
  if (!withModel) return { provider: parent, note: `model "${model}" cannot be chosen here; it runs with the task's model ${parent.modelId}` };
  return { provider: withModel(model) };
}
