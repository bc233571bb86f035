import { useState } from 'react';
import { Codicon } from '../common/codicon.js';
import { MarkdownView } from '../markdown/markdown-view.js';

/** The model's final result, with the command it suggests to see it. */
export function CompletionCard({ result, command }: { result: string; command?: string }) {
  return (
    <div className="card completion-card">
      <div className="card-title">
        <Codicon name="pass" />
        <span>Task completed</span>
      </div>
      <MarkdownView text={result} />
      {command !== undefined && command !== '' && <SuggestedCommand command={command} />}
    </div>
  );
}

function SuggestedCommand({ command }: { command: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    // Clipboard access can be refused (no focus, permissions); the command stays selectable either way.
    navigator.clipboard?.writeText(command).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="suggested-command">
      <span className="muted small">Suggested command</span>
      <div className="suggested-command-row">
        <code className="mono">{command}</code>
        <button type="button" className="icon-button" aria-label={copied ? 'Copied' : 'Copy command'} title="Copy command" onClick={copy}>
          <Codicon name={copied ? 'check' : 'copy'} />
        </button>
      </div>
    </div>
  );
}
