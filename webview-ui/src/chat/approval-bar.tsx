import { useState, type KeyboardEvent } from 'react';
import type { PendingApproval } from '../../../src/shared/protocol.js';
import { Codicon } from '../common/codicon.js';
import { useActions } from '../common/actions-context.js';
import { CommandPreviewView } from './command-preview-view.js';
import { DiffView } from './diff-view.js';
import { DiffStatsBadge } from './tool-card.js';
import { toolIcon } from './tool-display.js';
import { toolSubject, toolVerb } from '../../../src/shared/tool-subject.js';
import { useTaskRef } from '../common/task-context.js';

/**
 * The decision the task waits on: what the tool wants to do, to which path, +/− lines, why it asks,
 * and the command (an edit's diff is in VS Code's diff editor; a folded copy is here).
 * Keyboard: Approve and Reject are ordinary buttons (Tab, Enter/Space). Ctrl+Enter (Cmd+Enter on
 * macOS) in the Feedback box approves with the feedback, as in VS Code's own input boxes; a plain
 * Enter stays a newline so feedback can span lines. Mount with `key={approval.callId}` so feedback
 * typed for one call never carries over to the next.
 */
export function ApprovalBar({
  approval,
  taskTitle,
}: {
  approval: PendingApproval /** Names the task asking (when the panel has several). */;
  taskTitle?: string | undefined;
}) {
  const { request, reportError } = useActions();
  const taskRef = useTaskRef();
  const [feedback, setFeedback] = useState('');
  const [sending, setSending] = useState(false);

  const decide = (type: 'approve' | 'reject', all = false, alwaysAllow?: 'user' | 'workspace', applyPreview = false) => {
    if (sending) return;
    setSending(true);
    const text = feedback.trim();
    request({
      type,
      callId: approval.callId,
      ...taskRef,
      ...(text === '' ? {} : { feedback: text }),
      ...(all ? { all: true } : {}),
      ...(alwaysAllow ? { alwaysAllow } : {}),
      ...(applyPreview ? { applyPreview: true } : {}),
    }).catch((error: unknown) => {
      setSending(false);
      reportError(error);
    });
  };
  const preview = approval.preview;
  const previewed = preview?.summary !== undefined;
  const startPreview = () => {
    request({ type: 'previewCommand', callId: approval.callId, ...taskRef }).catch(reportError);
  };

  const onFeedbackKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      decide('approve');
    }
  };

  const stats = approval.stats;
  // The calls of the same response still to come after this one.
  const rest = approval.batch === undefined ? 0 : approval.batch.calls.length - approval.batch.index;
  return (
    <section className="approval-bar" aria-label={taskTitle === undefined ? 'Approval needed' : `Approval needed: ${taskTitle}`}>
      {taskTitle !== undefined && (
        <div className="approval-task" role="note">
          <Codicon name="tasklist" /> Task: {taskTitle}
        </div>
      )}
      {approval.subagent !== undefined && (
        <div className="approval-asker" role="note">
          <Codicon name="organization" /> {subagentName(approval.subagent)} asks
        </div>
      )}
      <div className="card-title">
        <Codicon name={toolIcon(approval.tool)} />
        <span className="approval-summary">{approval.summary}</span>
        {stats !== undefined && <DiffStatsBadge stats={stats} />}
      </div>
      {approval.path !== undefined && <div className="approval-path mono">{approval.path}</div>}
      {approval.batch !== undefined && <BatchList batch={approval.batch} />}
      {approval.reason !== undefined && approval.reason !== '' && <div className="approval-reason muted">{approval.reason}</div>}
      {/* The diff editor shows the proposal; the copy here stays folded for when it cannot (or on a second look). */}
      {approval.diff !== undefined && (
        <details className="approval-diff">
          <summary>Show the diff here</summary>
          <DiffView diff={approval.diff} />
        </details>
      )}
      {approval.command !== undefined && <pre className="approval-command mono">{approval.command}</pre>}
      {preview !== undefined && <CommandPreviewView preview={preview} />}
      <label className="field-label" htmlFor="approval-feedback">
        Feedback
      </label>
      <textarea
        id="approval-feedback"
        className="feedback-input"
        rows={2}
        value={feedback}
        placeholder="Optional: tell the model why, or what to do instead (Ctrl+Enter approves)"
        onChange={(event) => setFeedback(event.target.value)}
        onKeyDown={onFeedbackKey}
      />
      <div className="button-row">
        <button type="button" className="primary-button" onClick={() => decide('approve')} disabled={sending}>
          <Codicon name="check" /> {previewed ? 'Run for real' : 'Approve'}
        </button>
        {previewed && (
          <button
            type="button"
            className="secondary-button"
            title="Write the previewed file changes into the workspace instead of running the command"
            onClick={() => decide('approve', false, undefined, true)}
            disabled={sending || preview?.applicable !== true}
          >
            <Codicon name="check" /> Apply preview
          </button>
        )}
        {preview !== undefined && (
          <button
            type="button"
            className="secondary-button"
            title="Run the command on a copy of the workspace, without network, and show what it would change"
            onClick={startPreview}
            disabled={sending || preview.running}
          >
            <Codicon name="eye" /> {previewed ? 'Preview again' : 'Preview'}
          </button>
        )}
        <button type="button" className="secondary-button" onClick={() => decide('reject')} disabled={sending}>
          <Codicon name="close" /> Reject
        </button>
        {approval.allowRules !== undefined && approval.allowRules.length > 0 && (
          <AlwaysAllow rules={approval.allowRules} disabled={sending} onChoose={(scope) => decide('approve', false, scope)} />
        )}
        {rest > 0 && (
          <button
            type="button"
            className="secondary-button"
            title="Approve this call and the rest of this response's calls"
            onClick={() => decide('approve', true)}
            disabled={sending}
          >
            <Codicon name="check-all" /> Approve all ({rest + 1})
          </button>
        )}
      </div>
    </section>
  );
}

/** "Sub-agent 2 · fixer": who asks, as the sub-agent list numbers and names it. */
export function subagentName(who: NonNullable<PendingApproval['subagent']>): string {
  return `Sub-agent ${who.index + 1}${who.name !== undefined ? ` · ${who.name}` : ''}`;
}

/** The calls of one response, reviewed as one list: this one marked, the ones before it done, the rest to come. */
function BatchList({ batch }: { batch: NonNullable<PendingApproval['batch']> }) {
  return (
    <ol className="approval-batch" aria-label={`Call ${batch.index} of ${batch.calls.length} in this response`}>
      {batch.calls.map((call, i) => {
        const subject = toolSubject(call.tool, call.params);
        const place = i + 1 < batch.index ? 'done' : i + 1 === batch.index ? 'current' : 'next';
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the calls of a response are fixed; their place is their identity
          <li key={i} className={`batch-call batch-${place}`} aria-current={place === 'current' ? 'step' : undefined}>
            <Codicon name={place === 'done' ? 'check' : place === 'current' ? 'arrow-right' : 'circle-small'} /> {toolVerb(call.tool)} {subject?.text ?? ''}
          </li>
        );
      })}
    </ol>
  );
}

/** "Always allow": the rules that would allow this call from now on, written for the user or for this workspace. */
function AlwaysAllow({ rules, disabled, onChoose }: { rules: readonly string[]; disabled: boolean; onChoose: (scope: 'user' | 'workspace') => void }) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <button
        type="button"
        className="link-button"
        aria-expanded={false}
        disabled={disabled}
        onClick={() => setOpen(true)}
        title={`Approve, and from now on allow ${rules.join(', ')}`}
      >
        Always allow…
      </button>
    );
  }
  return (
    <div className="always-allow" role="group" aria-label="Always allow">
      <span className="small">
        Approve and allow from now on: <code>{rules.join(', ')}</code>
      </span>
      <button
        type="button"
        className="secondary-button"
        disabled={disabled}
        onClick={() => onChoose('user')}
        title="Written to your settings (every workspace)"
      >
        For me
      </button>
      <button
        type="button"
        className="secondary-button"
        disabled={disabled}
        onClick={() => onChoose('workspace')}
        title="Written to this workspace's .smith/settings.json"
      >
        In this workspace
      </button>
    </div>
  );
}
