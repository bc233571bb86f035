import type { PendingApproval } from '../../../src/shared/protocol.js';
import type { CommandEnd, LineStats } from '../../../src/shared/tool-details.js';
import { isTool } from '../../../src/shared/tool-catalogue.js';
import { findingsLine } from '../../../src/shared/tool-result-summary.js';
import { toolSubject, toolVerb, type ToolSubject } from '../../../src/shared/tool-subject.js';
import type { UiToolMessage } from '../../../src/shared/ui-messages.js';
import { useActions } from '../common/actions-context.js';
import { Codicon } from '../common/codicon.js';
import { CommandOutput } from './command-output.js';
import { SubagentList } from './subagent-list.js';
import { BrowserView } from './browser-view.js';
import { McpProgressLine, McpResultFacts } from './mcp-result.js';
import { isCommandTool, splitPath, toolIcon, toolStatusDisplay } from './tool-display.js';
import { commandView, editStats, exitBadge } from './tool-result-view.js';
import { useTaskRef } from '../common/task-context.js';

/** Tool output shown inline at most; the model saw all of it, the user rarely needs to. */
const OUTPUT_PREVIEW_CAP = 8000;

/**
 * One card per tool call: what it did, to what, how it went. Exit code, lines changed and counts
 * come from the result's facts (or, while it waits, the approval's); a result logged without them
 * shows its text alone.
 */
export function ToolCard({ message, live, approval, taskId }: { message: UiToolMessage; live?: string; approval?: PendingApproval; taskId?: string }) {
  const subject = toolSubject(message.tool, message.params);
  const status = toolStatusDisplay(message.status);
  const stats = editStats(message, approval);
  const command = isCommandTool(message.tool);
  const result = command ? commandView(message, live) : undefined;
  const facts = findingsLine(message.details);

  return (
    <div className={`card tool-card status-${message.status}`} data-call-id={message.callId}>
      {/* Two parts that wrap as wholes: in a narrow panel the subject and the status get a line of their own. */}
      <div className="card-title tool-title">
        <span className="tool-label">
          <Codicon name={toolIcon(message.tool)} />
          <span className="tool-name" title={message.tool}>
            {toolVerb(message.tool, message.details?.edit?.created === true)}
          </span>
        </span>
        <span className="tool-detail">
          {subject !== undefined && <SubjectLabel subject={subject} />}
          <span className="tool-meta">
            {stats !== undefined && <DiffStatsBadge stats={stats} />}
            {result?.end !== undefined && <ExitBadge end={result.end} />}
            <span className="tool-status" role="img" title={status.label} aria-label={status.label}>
              <Codicon name={status.icon} spin={message.status === 'running'} />
            </span>
          </span>
        </span>
      </div>
      {facts !== undefined && <div className="tool-facts muted small">{facts}</div>}
      {result?.note !== undefined && <div className="command-note muted small">{result.note}</div>}
      {result !== undefined &&
        (result.output === '' && live === undefined ? (
          <div className="command-no-output muted small">No output</div>
        ) : (
          <CommandOutput text={result.output} live={live !== undefined && message.status === 'running'} />
        ))}
      {command && message.status === 'running' && <ProceedButton callId={message.callId} />}
      {isTool(message.tool, 'use_subagents') && <SubagentList message={message} {...(live !== undefined ? { live } : {})} />}
      {isTool(message.tool, 'browser_action') && <BrowserView message={message} {...(taskId !== undefined ? { taskId } : {})} />}
      {isTool(message.tool, 'use_mcp_tool') && message.status === 'running' && live !== undefined && <McpProgressLine live={live} />}
      {isTool(message.tool, 'use_mcp_tool') && <McpResultFacts message={message} />}
      {!command && !isTool(message.tool, 'use_subagents') && message.output !== undefined && message.output !== '' && (
        <details className="tool-output">
          <summary>Output</summary>
          <pre>{message.output.length > OUTPUT_PREVIEW_CAP ? `${message.output.slice(0, OUTPUT_PREVIEW_CAP)}\n…` : message.output}</pre>
        </details>
      )}
      {message.error !== undefined && <div className="tool-error">{message.error}</div>}
      <DecisionLine message={message} />
    </div>
  );
}

/**
 * How the call went, in words: who approved it, or that it was rejected (with the user's feedback)
 * or failed. Calls that needed no decision (reads, the model's questions) say nothing.
 */
function DecisionLine({ message }: { message: UiToolMessage }) {
  const feedback = message.feedback !== undefined && message.feedback !== '' ? message.feedback : undefined;
  if (message.status === 'rejected') {
    return (
      <div className="tool-decision tool-feedback">
        <Codicon name="circle-slash" /> Rejected{feedback !== undefined ? `: ${feedback}` : ' by you'}
      </div>
    );
  }
  if (message.status === 'failed')
    return <div className="tool-decision muted small">Failed{message.approvedBy === 'user' ? ' after you approved it' : ''}.</div>;
  // Feedback comes only with the user's decision.
  if (message.approvedBy === undefined && feedback === undefined) return null;
  const by =
    message.approvedBy !== 'auto' ? 'Approved by you' : message.rule !== undefined ? `Allowed by your rule ${message.rule}` : 'Auto-approved by your settings';
  return (
    <div className={feedback !== undefined ? 'tool-decision tool-feedback' : 'tool-decision muted small'}>
      {feedback !== undefined && <Codicon name="feedback" />} {by}
      {feedback !== undefined ? `: ${feedback}` : '.'}
    </div>
  );
}

/** Lets a running command go on in the background so the agent proceeds (the host ignores it once the command is done). */
function ProceedButton({ callId }: { callId: string }) {
  const { send } = useActions();
  const taskRef = useTaskRef();
  return (
    <div className="command-actions">
      <button
        type="button"
        className="secondary-button"
        title="Keep the command running in the background and let Smith go on"
        onClick={() => send({ type: 'proceedCommand', callId, ...taskRef })}
      >
        <Codicon name="debug-continue" />
        Proceed while running
      </button>
    </div>
  );
}

/** The subject in one line; for a path the folders give way first (from their start), so the file name stays readable. */
function SubjectLabel({ subject }: { subject: ToolSubject }) {
  if (subject.kind !== 'path') {
    return (
      <span className={subject.kind === 'command' ? 'tool-subject mono' : 'tool-subject'} title={subject.text}>
        {subject.text}
      </span>
    );
  }
  const { dir, name } = splitPath(subject.text);
  return (
    <span className="tool-subject path" title={subject.text}>
      {/* Right-to-left so the ellipsis takes the folders' start and the ones nearest the file stay; the bdi keeps the path itself left-to-right. */}
      {dir !== '' && (
        <span className="path-dir" dir="rtl">
          <bdi dir="ltr">{dir}</bdi>
        </span>
      )}
      <span className="path-name">{name}</span>
    </span>
  );
}

/** The exit code of a finished command: green for 0, red otherwise (or the signal that ended it). */
function ExitBadge({ end }: { end: CommandEnd }) {
  const badge = exitBadge(end);
  if (badge === undefined) return null;
  return (
    <span className={badge.ok ? 'exit-badge exit-ok' : 'exit-badge exit-failed'} role="img" title={badge.label} aria-label={badge.label}>
      {badge.text}
    </span>
  );
}

/** `+N −M` in the diff editor's colours. */
export function DiffStatsBadge({ stats }: { stats: LineStats }) {
  return (
    <span className="diff-stats" role="img" aria-label={`${stats.added} lines added, ${stats.removed} lines removed`}>
      <span className="diff-stats-add">+{stats.added}</span> <span className="diff-stats-del">−{stats.removed}</span>
    </span>
  );
}
