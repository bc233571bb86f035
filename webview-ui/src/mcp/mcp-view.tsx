import type { McpConfigProblemView, McpPanelState } from '../../../src/shared/protocol.js';
import { Codicon } from '../common/codicon.js';
import { PageHeader } from '../common/page-header.js';
import { useActions } from '../common/actions-context.js';
import { McpServerCard } from './mcp-server-card.js';
import { ElicitationForms } from './elicitation-form.js';
import { RegistryBrowser } from './registry-browser.js';
import { fileName, mcpProblemPlace } from './mcp-status.js';

/** The MCP servers of the window: config problems first, then each server with its tools and resources. */
export function McpView({ mcp, onBack }: { mcp: McpPanelState; onBack: () => void }) {
  const { send } = useActions();
  const { global, workspace } = mcp.configFiles;
  return (
    <div className="page mcp-view">
      <PageHeader title="MCP servers" onBack={onBack} />
      <div className="button-row mcp-config-buttons">
        <button type="button" className="secondary-button" title={global} onClick={() => send({ type: 'mcpOpenConfig', scope: 'global' })}>
          <Codicon name="go-to-file" /> Open global settings
        </button>
        <button
          type="button"
          className="secondary-button"
          title={workspace ?? 'Open a folder to use workspace settings (.smith/mcp.json)'}
          onClick={() => send({ type: 'mcpOpenConfig', scope: 'workspace' })}
        >
          <Codicon name="go-to-file" /> Open workspace settings
        </button>
      </div>
      <ElicitationForms forms={mcp.elicitations} />
      {mcp.problems.length > 0 && <ProblemList problems={mcp.problems} />}
      {mcp.servers.length === 0 ? (
        <p className="muted mcp-empty">
          No MCP servers configured. Add them under <code>"mcpServers"</code> in the global settings or in the workspace&apos;s <code>.smith/mcp.json</code>.
        </p>
      ) : (
        <ul className="mcp-server-list" aria-label="Servers">
          {mcp.servers.map((server) => (
            <McpServerCard key={server.name} server={server} />
          ))}
        </ul>
      )}
      <RegistryBrowser registry={mcp.registry} hasWorkspace={workspace !== undefined} />
    </div>
  );
}

function ProblemList({ problems }: { problems: readonly McpConfigProblemView[] }) {
  return (
    <section className="mcp-problems" aria-labelledby="mcp-problems-title">
      <h3 id="mcp-problems-title">
        <Codicon name="warning" /> Configuration problems
      </h3>
      <ul>
        {problems.map((problem, index) => (
          // The same file and server can have several problems; the list is rebuilt whole, never reordered.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={`${problem.file}\n${problem.server ?? ''}\n${index}`} className="mcp-problem">
            <span className="mcp-problem-place">{mcpProblemPlace(problem)}:</span> {problem.message}
            <div className="muted small mono" title={problem.file}>
              {fileName(problem.file)}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
