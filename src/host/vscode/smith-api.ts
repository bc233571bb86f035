import type { McpService } from './mcp-service.js';
import type { ProviderKeys } from './settings.js';
import type { TaskController } from '../../panel/task-controller.js';
import type { WebviewInteractions } from '../../panel/webview-interactions.js';

/** What activate() returns: the extension's live parts, for other extensions and the integration tests. */
export interface SmithApi {
  readonly controller: TaskController;
  readonly keys: ProviderKeys;
  /** The pending approval or question, answered as the panel would. */
  readonly interactions: WebviewInteractions;
  readonly storageDir: string;
  /** The window's MCP servers. */
  readonly mcp: McpService;
}
