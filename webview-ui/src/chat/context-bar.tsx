import type { TaskView } from '../../../src/shared/protocol.js';
import { useActions } from '../common/actions-context.js';
import { Codicon } from '../common/codicon.js';
import { formatTokens } from '../common/format.js';

type Context = NonNullable<TaskView['context']>;

/**
 * How full the model's context window was at the latest request: a bar with the tokens and the
 * window, a breakdown on hover (system prompt, tool definitions, conversation, tool results), the
 * line where Smith condenses by itself, and a Condense button.
 */
export function ContextBar({ taskId, context, idle }: { taskId: string; context: Context; idle: boolean }) {
  const { send } = useActions();
  const share = context.window !== undefined && context.window > 0 ? Math.min(1, context.tokens / context.window) : undefined;
  const breakdown = [
    `System prompt: ${context.system.toLocaleString()}`,
    ...(context.tools > 0 ? [`Tool definitions: ${context.tools.toLocaleString()}`] : []),
    `Conversation: ${(context.conversation - context.results).toLocaleString()}`,
    `Tool results: ${context.results.toLocaleString()}`,
    ...(context.condenseAt !== undefined && context.window !== undefined
      ? [`Condensed by itself at ${Math.round(context.condenseAt * 100)} % (${formatTokens(Math.round(context.condenseAt * context.window))})`]
      : []),
    '(estimated tokens of the latest request)',
  ].join('\n');
  return (
    <div className="context-bar small" role="group" aria-label="Context window" title={breakdown}>
      <span className="context-figures">
        {formatTokens(context.tokens)}
        {context.window !== undefined ? ` / ${formatTokens(context.window)}` : ' tokens (window unknown)'}
      </span>
      {share !== undefined && (
        <span
          className="context-meter"
          role="meter"
          aria-label="Context window used"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(share * 100)}
        >
          <span className={share >= (context.condenseAt ?? 0.8) ? 'context-fill full' : 'context-fill'} style={{ width: `${share * 100}%` }} />
          {context.condenseAt !== undefined && <span className="context-threshold" style={{ left: `${context.condenseAt * 100}%` }} />}
        </span>
      )}
      <button
        type="button"
        className="link-button context-condense"
        disabled={!idle}
        title={idle ? 'Summarise the task so far; the summary replaces older turns for the model' : 'Available when Smith is not working'}
        onClick={() => send({ type: 'condense', taskId })}
      >
        <Codicon name="fold" /> Condense
      </button>
    </div>
  );
}
