import type { ApprovalPreview } from '../../../src/shared/command-preview-facts.js';
import { previewSummaryLines } from '../../../src/shared/command-preview-facts.js';
import { Codicon } from '../common/codicon.js';

/**
 * A command approval's preview (docs/command-preview.md): running, failed, or what the command
 * would create, change and delete on a copy of the workspace, and why it is not previewable
 * when it is not. The files themselves open in the editor's multi-file diff.
 */
export function CommandPreviewView({ preview }: { preview: ApprovalPreview }) {
  if (preview.running) {
    return (
      <div className="command-preview muted" role="status">
        <Codicon name="loading" /> Previewing on a copy of the workspace (no network)…
      </div>
    );
  }
  if (preview.error !== undefined) {
    return (
      <div className="command-preview" role="alert">
        Preview failed: {preview.error}
      </div>
    );
  }
  if (preview.summary === undefined) return null;
  const counts = new Map(Object.entries(preview.counts ?? {}));
  const [head, ...lines] = previewSummaryLines(preview.summary, counts);
  return (
    <section className="command-preview" aria-label="Command preview">
      <div className="card-title">
        <Codicon name="eye" /> <span>{head}</span>
      </div>
      {lines.length > 0 && (
        <ul className="command-preview-lines mono">
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {!preview.applicable && preview.summary.ran && (
        <div className="muted small">Apply is not offered: the preview does not show everything the command would do.</div>
      )}
    </section>
  );
}
