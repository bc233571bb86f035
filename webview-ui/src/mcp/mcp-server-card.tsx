import type { McpServerView, McpToolView } from '../../../src/shared/protocol.js';
import { BusyButton } from '../common/busy-button.js';
import { Codicon } from '../common/codicon.js';
import { useActions } from '../common/actions-context.js';
import { useOptimistic } from '../common/use-optimistic.js';
import { usePendingRequest } from '../common/use-pending-request.js';
import { fileName, mcpStatusLabel } from './mcp-status.js';

type Action = 'restart' | 'toggle' | 'log' | 'signIn' | 'signOut';

/** One server: status dot and text, error, actions, and its tools and resources (collapsed). */
export function McpServerCard({ server }: { server: McpServerView }) {
  // The action in flight, so its button shows progress and cannot be pressed twice.
  const [busy, run] = usePendingRequest<Action>();
  const { name } = server;
  const titleId = `mcp-server-${idOf(name)}`;
  const resourceCount = server.resources.length + server.resourceTemplates.length;
  return (
    <li className={`mcp-server status-${server.status}`} aria-labelledby={titleId}>
      <div className="mcp-server-header">
        <span className={`mcp-status-dot status-${server.status}`} aria-hidden="true" />
        <h3 id={titleId} className="mcp-server-name">
          {name}
        </h3>
        <span className="mcp-status-text">{mcpStatusLabel(server)}</span>
        <span className="spacer" />
        <span className="mcp-scope muted small" title={server.source}>
          {server.scope === 'other' ? fileName(server.source) : server.scope}
        </span>
      </div>
      {server.error !== undefined && server.status !== 'connected' && (
        <pre className="mcp-error" role="group" tabIndex={0} aria-label={`Error of ${name}`}>
          {server.error}
        </pre>
      )}
      {server.auth?.state === 'signing-in' && server.auth.url !== undefined && (
        <p className="mcp-sign-in muted small">
          Finish signing in in the browser. If no page opened, open this address:{' '}
          <a href={server.auth.url} className="mono">
            {server.auth.url}
          </a>
        </p>
      )}
      <div className="mcp-actions">
        {server.status === 'needs-auth' && (
          <BusyButton
            icon="sign-in"
            busy={busy === 'signIn'}
            label={`Sign in to ${name}`}
            disabled={busy !== undefined}
            onClick={() => run('signIn', { type: 'mcpSignIn', server: name })}
          >
            Sign in
          </BusyButton>
        )}
        {server.auth?.state === 'signed-in' && (
          <BusyButton
            icon="sign-out"
            busy={busy === 'signOut'}
            label={`Sign out of ${name}`}
            disabled={busy !== undefined}
            onClick={() => run('signOut', { type: 'mcpSignOut', server: name })}
          >
            Sign out
          </BusyButton>
        )}
        <BusyButton
          icon="debug-restart"
          busy={busy === 'restart'}
          label={`Restart ${name}`}
          // An invalid entry has nothing to start, and a disabled server must be enabled first.
          disabled={busy !== undefined || server.disabled || server.transport === undefined}
          onClick={() => run('restart', { type: 'mcpRestart', server: name })}
        >
          Restart
        </BusyButton>
        <BusyButton
          icon={server.disabled ? 'play' : 'circle-slash'}
          busy={busy === 'toggle'}
          label={`${server.disabled ? 'Enable' : 'Disable'} ${name}`}
          disabled={busy !== undefined}
          onClick={() => run('toggle', { type: 'mcpSetDisabled', server: name, disabled: !server.disabled })}
        >
          {server.disabled ? 'Enable' : 'Disable'}
        </BusyButton>
        <button
          type="button"
          className="secondary-button"
          aria-label={`Show log of ${name}`}
          disabled={busy === 'log'}
          onClick={() => run('log', { type: 'mcpShowLog', server: name })}
        >
          <Codicon name="output" /> Show log
        </button>
      </div>
      {server.tools.length > 0 && (
        <details className="mcp-section">
          <summary>Tools ({server.tools.length})</summary>
          <ul className="mcp-tools">
            {server.tools.map((tool) => (
              <ToolRow key={tool.name} server={name} tool={tool} />
            ))}
          </ul>
        </details>
      )}
      {resourceCount > 0 && (
        <details className="mcp-section">
          <summary>Resources ({resourceCount})</summary>
          <ul className="mcp-resources">
            {server.resources.map((resource) => (
              <li key={resource.uri}>
                <span className="mono">{resource.uri}</span> <span className="muted">{resource.name}</span>
              </li>
            ))}
            {server.resourceTemplates.map((template) => (
              <li key={template.uriTemplate}>
                <span className="mono">{template.uriTemplate}</span> <span className="muted">{template.name} (template)</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </li>
  );
}

function ToolRow({ server, tool }: { server: string; tool: McpToolView }) {
  const { request } = useActions();
  const [checked, choose] = useOptimistic(tool.autoApproved);
  return (
    <li className="mcp-tool">
      <div className="mcp-tool-text">
        <div className="mcp-tool-name mono">{tool.name}</div>
        {tool.description !== '' && <div className="muted small">{tool.description}</div>}
      </div>
      <label className="mcp-auto-approve small" title="Run this tool without asking">
        <input
          type="checkbox"
          aria-label={`Auto-approve ${tool.name}`}
          checked={checked}
          onChange={(event) => {
            const autoApprove = event.target.checked;
            choose(autoApprove, () => request({ type: 'mcpSetAutoApprove', server, tool: tool.name, autoApprove }));
          }}
        />
        Auto-approve
      </label>
    </li>
  );
}

/** A string usable in an id attribute for any server name. */
function idOf(name: string): string {
  return Array.from(name, (c) => (/[A-Za-z0-9_-]/.test(c) ? c : `_${c.codePointAt(0)!.toString(16)}`)).join('');
}
