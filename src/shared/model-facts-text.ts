/** What a model list knows of a model, as the CLI's --list-models and the panel's picker show it. */
interface ModelFactsShown {
  readonly name?: string;
  readonly contextWindow?: number;
  readonly inputPrice?: number;
  readonly outputPrice?: number;
  readonly supportsImages?: boolean;
  readonly supportsTools?: boolean;
  readonly supportsReasoning?: boolean;
  readonly inferredFrom?: string;
}

/** "200k window · $3 / $15 per M · images · tools · reasoning · inferred from X", with what is known (after the model's name, if it has one); `window` writes the window. */
export function modelFactsText(model: ModelFactsShown, window: (tokens: number) => string): string {
  const facts: string[] = model.name ? [model.name] : [];
  if (model.contextWindow !== undefined) facts.push(window(model.contextWindow));
  if (model.inputPrice !== undefined && model.outputPrice !== undefined) {
    facts.push(model.inputPrice === 0 && model.outputPrice === 0 ? 'free' : `$${model.inputPrice} / $${model.outputPrice} per M`);
  }
  if (model.supportsImages) facts.push('images');
  if (model.supportsTools) facts.push('tools');
  if (model.supportsReasoning) facts.push('reasoning');
  // Said, so nobody takes a guess for the vendor's word.
  if (model.inferredFrom) facts.push(`inferred from ${model.inferredFrom}`);
  return facts.join(' · ');
}
