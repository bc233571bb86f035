import type { PanelState } from '../../src/shared/protocol.js';

/** The panel state of a fresh window: no task, no history, Act in Code mode, default auto-approve. */
export const QUIET_PANEL_STATE: PanelState = {
  view: 'chat',
  settings: { provider: 'anthropic', model: 'm', baseUrl: '', toolProtocol: 'xml', hasApiKey: false },
  history: [],
  modes: [{ slug: 'code', name: 'Code' }],
  mode: 'act',
  modeSlug: 'code',
  mcp: { servers: [], problems: [], configFiles: { global: '/storage/mcp_settings.json' } },
  autoApprove: { readFiles: true, editFiles: false, safeCommands: false, allCommands: false, mcpTools: false, maxRequests: 25 },
};
