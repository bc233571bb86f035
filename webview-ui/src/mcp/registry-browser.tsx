import { useState } from 'react';
import type { McpRegistryView } from '../../../src/shared/protocol.js';
import { Codicon } from '../common/codicon.js';
import { usePendingRequest } from '../common/use-pending-request.js';

type Server = McpRegistryView['servers'][number];

/** "Browse servers": searches the MCP Registry and installs a server into the user's or the workspace's settings. */
export function RegistryBrowser({ registry, hasWorkspace }: { registry: McpRegistryView | undefined; hasWorkspace: boolean }) {
  const [query, setQuery] = useState(registry?.query ?? '');
  const [pending, send] = usePendingRequest<'search' | 'more'>();
  return (
    <section className="mcp-registry" aria-labelledby="mcp-registry-title">
      <h3 id="mcp-registry-title">
        <Codicon name="search" /> Browse servers
      </h3>
      <form
        className="button-row"
        onSubmit={(event) => {
          event.preventDefault();
          send('search', { type: 'mcpRegistrySearch', query });
        }}
      >
        <input aria-label="Search the MCP Registry" value={query} placeholder="Search the MCP Registry" onChange={(event) => setQuery(event.target.value)} />
        <button type="submit" className="secondary-button" disabled={pending !== undefined}>
          Search
        </button>
      </form>
      {registry !== undefined && (
        <>
          <div className="muted small">{registry.registry}</div>
          {registry.error !== undefined && <div className="field-error">{registry.error}</div>}
          {registry.error === undefined && registry.servers.length === 0 && <p className="muted">No servers found.</p>}
          <ul className="mcp-server-list" aria-label="Registry servers">
            {registry.servers.map((server) => (
              <RegistryServer key={server.name} server={server} hasWorkspace={hasWorkspace} />
            ))}
          </ul>
          {registry.skipped > 0 && <div className="muted small">{registry.skipped} entries of the answer were not valid and are not shown.</div>}
          {registry.nextCursor !== undefined && (
            <button
              type="button"
              className="secondary-button"
              disabled={pending !== undefined}
              onClick={() => send('more', { type: 'mcpRegistrySearch', query: registry.query, cursor: registry.nextCursor! })}
            >
              More
            </button>
          )}
        </>
      )}
    </section>
  );
}

function RegistryServer({ server, hasWorkspace }: { server: Server; hasWorkspace: boolean }) {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const [scope, setScope] = useState<'user' | 'workspace'>('user');
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const [pending, send] = usePendingRequest<'install'>();
  return (
    <li className="card mcp-registry-server">
      <div className="card-title">
        <span>{server.title ?? server.name}</span>
        {server.version !== undefined && <span className="muted small"> {server.version}</span>}
        {server.status !== undefined && server.status !== 'active' && <span className="muted small"> ({server.status})</span>}
      </div>
      <div className="muted small mono">{server.name}</div>
      {server.description !== undefined && <p>{server.description}</p>}
      <ul className="small">
        {server.transports.map((t) => (
          <li key={t} className="mono">
            {t}
          </li>
        ))}
      </ul>
      {server.inputs.length > 0 && (
        <div className="small">
          Needs:{' '}
          {server.inputs.map((i) => `${i.kind === 'env' ? '' : 'header '}${i.name}${i.required ? ' (required)' : ''}${i.secret ? ' (secret)' : ''}`).join(', ')}
        </div>
      )}
      {server.source !== undefined && <div className="muted small">Source: {server.source}</div>}
      {server.problem !== undefined ? (
        <div className="muted small">{server.problem}</div>
      ) : !open ? (
        <button type="button" className="secondary-button" onClick={() => setOpen(true)}>
          <Codicon name="cloud-download" /> Install…
        </button>
      ) : (
        <form
          className="elicitation-form"
          onSubmit={(event) => {
            event.preventDefault();
            // The host refuses a missing input too; saying it here, at the field, keeps what was typed.
            const missing = missingFields(server, values);
            setErrors(missing);
            if (Object.keys(missing).length > 0) return;
            send('install', { type: 'mcpRegistryInstall', name: server.name, scope, values: givenValues(values) });
          }}
        >
          <div className="muted small">Runs {server.installs}</div>
          {server.inputs.map((input) => (
            <div key={input.name} className="elicitation-field">
              <label htmlFor={`registry-${server.name}-${input.name}`}>
                {input.name}
                {input.required ? ' *' : ''}
                {input.secret ? ' (kept in secret storage)' : ''}
              </label>
              <input
                id={`registry-${server.name}-${input.name}`}
                type={input.secret ? 'password' : 'text'}
                placeholder={input.default ?? ''}
                value={values[input.name] ?? ''}
                aria-invalid={errors[input.name] !== undefined}
                {...(errors[input.name] !== undefined ? { 'aria-describedby': `registry-${server.name}-${input.name}-error` } : {})}
                onChange={(event) => setValues((current) => ({ ...current, [input.name]: event.target.value }))}
              />
              {input.description !== undefined && <div className="muted small">{input.description}</div>}
              {errors[input.name] !== undefined && (
                <div className="field-error" id={`registry-${server.name}-${input.name}-error`} role="alert">
                  {errors[input.name]}
                </div>
              )}
            </div>
          ))}
          <label className="checkbox-field">
            <input
              type="checkbox"
              checked={scope === 'workspace'}
              disabled={!hasWorkspace}
              onChange={(event) => setScope(event.target.checked ? 'workspace' : 'user')}
            />
            Install into this workspace (.smith/mcp.json; starts once you trust it)
          </label>
          <button type="submit" className="primary-button" disabled={pending !== undefined}>
            Install
          </button>
        </form>
      )}
    </li>
  );
}

/** The required inputs left empty that have no default, each with its message. */
function missingFields(server: Server, values: Readonly<Record<string, string>>): Record<string, string> {
  const missing: Record<string, string> = {};
  for (const input of server.inputs) {
    if (input.required && input.default === undefined && (values[input.name] ?? '').trim() === '') missing[input.name] = `${input.name} is required.`;
  }
  return missing;
}

/** The values typed, without the fields left empty (those take their default). */
function givenValues(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== ''));
}
