import type { UiToolMessage } from '../../../src/shared/ui-messages.js';

/** The latest progress line of a running MCP tool (its live output is one line per report). */
export function McpProgressLine({ live }: { live: string }) {
  const last = live.trimEnd().split('\n').at(-1) ?? '';
  if (last === '') return null;
  return (
    <div className="mcp-progress muted small" role="status" aria-live="polite">
      {last}
    </div>
  );
}

/** An MCP tool's structured result (JSON) and its resource links, from the result's facts. */
export function McpResultFacts({ message }: { message: UiToolMessage }) {
  const facts = message.details?.mcp;
  if (facts === undefined || (facts.structured === undefined && (facts.links ?? []).length === 0)) return null;
  return (
    <>
      {facts.structured !== undefined && (
        <details className="tool-output mcp-structured">
          <summary>Structured result</summary>
          <pre>{facts.structured}</pre>
        </details>
      )}
      {facts.links !== undefined && facts.links.length > 0 && (
        <ul className="mcp-links small" aria-label="Resource links">
          {facts.links.map((link) => (
            <li key={link.uri} title={link.description}>
              <span className="mono">{link.uri}</span>
              {link.name !== undefined && <span> {link.name}</span>}
              {link.mimeType !== undefined && <span className="muted"> ({link.mimeType})</span>}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
