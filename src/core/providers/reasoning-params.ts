import type { ReasoningConfig } from './types.js';

/** Reasoning effort as OpenAI's reasoning_effort takes it. */
export type ReasoningEffort = 'low' | 'medium' | 'high';

/** Thinking budgets an effort stands for, within every current Claude and Gemini 2.5 model's range. */
export const EFFORT_BUDGET_TOKENS: Readonly<Record<ReasoningEffort, number>> = { low: 2_048, medium: 8_192, high: 16_384 };

/** Anthropic rejects a smaller thinking budget. */
export const MIN_ANTHROPIC_THINKING_BUDGET = 1_024;

// Share of an explicit output cap that thinking may use, so some is left for the answer.
const THINKING_SHARE_OF_CAP = 0.8;

/** The thinking budget the settings ask for (Gemini passes it as is: 0 turns thinking off, -1 lets the model decide). */
export function thinkingBudget(reasoning: ReasoningConfig): number {
  return reasoning.budgetTokens ?? EFFORT_BUDGET_TOKENS[reasoning.effort ?? 'medium'];
}

/** The effort the settings ask for; a budget alone is mapped to the nearest effort. */
export function reasoningEffort(reasoning: ReasoningConfig): ReasoningEffort {
  if (reasoning.effort) return reasoning.effort;
  const budget = reasoning.budgetTokens;
  if (budget === undefined) return 'medium';
  if (budget <= EFFORT_BUDGET_TOKENS.low * 2) return 'low';
  return budget <= EFFORT_BUDGET_TOKENS.high ? 'medium' : 'high';
}

/** Anthropic's max_tokens and thinking budget for one request. */
export interface AnthropicThinkingPlan {
  readonly maxTokens: number;
  readonly budgetTokens: number;
}

/**
 * Plans an extended-thinking request. Anthropic counts thinking inside max_tokens and wants
 * 1024 ≤ budget < max_tokens, so an explicit output cap shrinks the budget and otherwise max_tokens
 * grows to fit the budget plus a normal answer. Undefined when thinking cannot or should not be on.
 */
export function anthropicThinkingPlan(
  reasoning: ReasoningConfig,
  configuredMaxTokens: number | undefined,
  defaultAnswerTokens: number,
  modelMaxOutputTokens: number,
): AnthropicThinkingPlan | undefined {
  const wanted = thinkingBudget(reasoning);
  if (wanted <= 0) return undefined; // a zero budget means "no thinking"
  let budget = Math.max(MIN_ANTHROPIC_THINKING_BUDGET, wanted);
  let maxTokens: number;
  if (configuredMaxTokens !== undefined) {
    maxTokens = configuredMaxTokens;
    budget = Math.min(budget, Math.floor(maxTokens * THINKING_SHARE_OF_CAP));
  } else {
    maxTokens = Math.min(modelMaxOutputTokens, budget + defaultAnswerTokens);
    if (budget >= maxTokens) budget = Math.floor(maxTokens * THINKING_SHARE_OF_CAP);
  }
  return budget >= MIN_ANTHROPIC_THINKING_BUDGET ? { maxTokens, budgetTokens: budget } : undefined;
}
