import type { ApiProvider, ProviderMessage, TokenUsage } from '../providers/types.js';

const SUMMARY_SYSTEM_PROMPT = 'You summarise a coding session so it can continue without the earlier messages. Write only the summary, no tool calls.';

/** What the summary must hold, so the task can go on from it alone. */
const SUMMARY_INSTRUCTIONS = `Summarise the conversation so far so that the work can continue from your summary alone. The summary replaces every earlier message except the original task. Use these sections:
1. Current work: what was being done right before this summary.
2. Key technical concepts: technologies, conventions and decisions.
3. Relevant files and code: each file read or changed, why it matters, and important snippets.
4. Problem solving: problems met, how they were solved, what failed.
5. Pending tasks and next steps: what remains, with the exact next step.`;

/** A summary and the tokens its request used. */
interface HistorySummary {
  readonly summary: string;
  /** Undefined when the provider reported no usage. */
  readonly usage?: TokenUsage;
}

/** A summary request that failed after the provider had reported its usage: the tokens were still spent. */
export class SummaryRequestError extends Error {
  constructor(
    message: string,
    readonly usage: TokenUsage | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SummaryRequestError';
  }
}

/** Asks the model for a structured summary of the conversation; resolves with its text and usage. */
export async function summarizeHistory(provider: ApiProvider, messages: readonly ProviderMessage[], signal?: AbortSignal): Promise<HistorySummary> {
  let summary = '';
  let usage: TokenUsage | undefined;
  const request = [...messages, { role: 'user' as const, content: SUMMARY_INSTRUCTIONS }];
  try {
    for await (const chunk of provider.createMessage({ systemPrompt: SUMMARY_SYSTEM_PROMPT, messages: request, ...(signal ? { signal } : {}) })) {
      if (chunk.type === 'text') summary += chunk.text;
      else if (chunk.type === 'usage') usage = chunk.usage;
    }
  } catch (error) {
    if (usage === undefined) throw error;
    throw new SummaryRequestError((error as Error).message, usage, { cause: error });
  }
  summary = summary.replace(/<thinking>[\s\S]*?<\/thinking>/g, '').trim();
  if (summary === '') throw new SummaryRequestError('The model returned an empty summary; the history was not condensed.', usage);
  return { summary, ...(usage ? { usage } : {}) };
}
