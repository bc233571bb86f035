import type { UiToolMessage } from '../../../src/shared/ui-messages.js';
import { Codicon } from '../common/codicon.js';
import { CommandOutput } from './command-output.js';
import { statsFromParams, statsFromUnifiedDiff, type DiffStats } from './diff-stats.js';
import { isCommandTool, toolIcon, toolStatusDisplay, toolSubject } from './tool-display.js';

/** Tool output shown inline at most; the model saw all of it, the user rarely needs to. */
const OUTPUT_PREVIEW_CAP = 8000;

/** One card per tool call: what it did, to what, how it went. */
export function ToolCard({ message, live, approvalDiff }: { message: UiToolMessage; live?: string; approvalDiff?: string }) {
  const subject = toolSubject(message.tool, message.params);
  const status = toolStatusDisplay(message.status);
  const stats = editStats(message, approvalDiff);
  const command = isCommandTool(message.tool);
  const output = live ?? message.output;

  return (
    <div className={`card tool-card status-${message.status}`} data-call-id={message.callId}>
      <div className="card-title">
        <Codicon name={toolIcon(message.tool)} />
        <span className="tool-name">{message.tool}</span>
        {subject !== undefined && (
          <span className={command ? 'tool-subject mono' : 'tool-subject'} title={subject}>
            {subject}
          </span>
        )}
        {stats !== undefined && <DiffStatsBadge stats={stats} />}
        <span className="tool-status" title={status.label} aria-label={status.label}>
          <Codicon name={status.icon} spin={message.status === 'running'} />
        </span>
      </div>
      {command && output !== undefined && <CommandOutput text={output} live={live !== undefined && message.status === 'running'} />}
      {!command && message.output !== undefined && message.output !== '' && (
        <details className="tool-output">
          <summary>Output</summary>
          <pre>{message.output.length > OUTPUT_PREVIEW_CAP ? `${message.output.slice(0, OUTPUT_PREVIEW_CAP)}\n…` : message.output}</pre>
        </details>
      )}
      {message.error !== undefined && <div className="tool-error">{message.error}</div>}
      {message.feedback !== undefined && message.feedback !== '' && (
        <div className="tool-feedback">
          <Codicon name="feedback" /> {message.feedback}
        </div>
      )}
    </div>
  );
}

function editStats(message: UiToolMessage, approvalDiff: string | undefined): DiffStats | undefined {
  if (approvalDiff !== undefined) return statsFromUnifiedDiff(approvalDiff);
  return statsFromParams(message.tool, message.params);
}

/** `+N −M` in the diff editor's colours. */
export function DiffStatsBadge({ stats }: { stats: DiffStats }) {
  return (
    <span className="diff-stats" aria-label={`${stats.added} lines added, ${stats.removed} lines removed`}>
      <span className="diff-stats-add">+{stats.added}</span> <span className="diff-stats-del">−{stats.removed}</span>
    </span>
  );
}
