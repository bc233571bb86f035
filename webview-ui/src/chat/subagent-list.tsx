import type { SubagentFacts } from '../../../src/shared/tool-details.js';
import type { UiToolMessage } from '../../../src/shared/ui-messages.js';
import { useActions } from '../common/actions-context.js';
import { Codicon } from '../common/codicon.js';
import { formatCost } from '../common/format.js';
import { CommandOutput } from './command-output.js';

/**
 * A use_subagents call: while the sub-agents work, their progress lines; once they reported, one
 * collapsible entry per sub-agent with its question, how it ended, what it cost, and its report.
 */
export function SubagentList({ message, live }: { message: UiToolMessage; live?: string }) {
  const children = message.details?.subagents;
  if (children === undefined || children.length === 0) return <RunningSubagents message={message} {...(live !== undefined ? { live } : {})} />;
  return (
    <ol className="subagent-list">
      {children.map((child, index) => (
        <li key={child.taskId}>
          <details className="subagent">
            <summary>
              {who(child) !== undefined && <span className="subagent-who">{who(child)}</span>} <span className="subagent-prompt">{child.prompt}</span>{' '}
              <span className={`subagent-status muted small status-${child.status}`}>{statusText(child)}</span>
            </summary>
            {child.report !== undefined ? (
              <pre className="subagent-report">{child.report}</pre>
            ) : (
              <div className="tool-error">{child.error ?? 'No report.'}</div>
            )}
            {child.paths !== undefined && <div className="muted small mono">May edit: {child.paths.join(', ')}</div>}
            <div className="muted small">
              Sub-agent {index + 1}, task {child.taskId} <OpenChat taskId={child.taskId} label={`Open the chat of sub-agent ${index + 1}`} />
            </div>
          </details>
        </li>
      ))}
    </ol>
  );
}

/** The sub-agents started so far, each with Stop while the call runs, and their progress lines. */
function RunningSubagents({ message, live }: { message: UiToolMessage; live?: string }) {
  const { send } = useActions();
  const running = message.status === 'running';
  return (
    <>
      {(message.subagents ?? []).length > 0 && (
        <ol className="subagent-list">
          {(message.subagents ?? []).map((child) => (
            <li key={child.taskId} className="subagent-running">
              {child.name !== undefined && <span className="subagent-who">{child.name}</span>} <span className="subagent-prompt">{child.prompt}</span>{' '}
              <span className="subagent-status muted small">{running ? 'running' : 'ended'}</span>{' '}
              <OpenChat taskId={child.taskId} label={`Open the chat of sub-agent ${child.index + 1}`} />
              {running && (
                <button
                  type="button"
                  className="link-button"
                  title="Stop this sub-agent; the others go on"
                  onClick={() => send({ type: 'stopSubagent', taskId: child.taskId })}
                >
                  <Codicon name="debug-stop" /> Stop
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      {live !== undefined && <CommandOutput text={live} live={running} />}
    </>
  );
}

/** Opens the sub-agent's own chat in place of the task's. */
function OpenChat({ taskId, label }: { taskId: string; label: string }) {
  const { request, reportError } = useActions();
  return (
    <button
      type="button"
      className="link-button"
      aria-label={label}
      title={label}
      onClick={() => request({ type: 'openSubagentChat', taskId }).catch(reportError)}
    >
      <Codicon name="comment-discussion" /> Open chat
    </button>
  );
}

function who(child: SubagentFacts): string | undefined {
  return child.agent ?? child.mode;
}

function statusText(child: SubagentFacts): string {
  const ended = child.status === 'completed' ? 'reported' : child.status;
  const cost = child.cost !== undefined ? `, ${formatCost(child.cost)}` : '';
  return `${ended} · ${child.requests} request${child.requests === 1 ? '' : 's'}${cost}`;
}
