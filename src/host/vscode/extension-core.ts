// Smith's core: everything the extension does beyond its view and command registrations, loaded by
// the small entry (src/extension.ts) on first use, as dist/extension-core.js.
// Must stay the first import: it configures zod before any schema is built.
import '../../shared/zod-config.js';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { ChatEditorPanel } from './chat-editor-panel.js';
import { connectChatWebview, type ChatWiring } from './chat-wiring.js';
import type { ChatConnector } from './chat-view-provider.js';
import { commandHandlers } from './commands.js';
import type { CommandId } from './contributed-ids.js';
import type { OpeningMark } from './opening-report.js';
import { DiffApproval } from './diff-approval.js';
import { EditDiagnostics } from './edit-diagnostics.js';
import { showAttentionNotice } from './attention-notifications.js';
import { VsCodeCheckpointViews } from './checkpoint-views.js';
import { openAsUntitled, saveWithDialog } from './export-target.js';
import { McpService } from './mcp-service.js';
import { applyStoredModelCatalog } from './model-catalog-command.js';
import { VsCodePanelSettings } from './panel-settings.js';
import { EditorMentionSources } from './mention-sources.js';
import { AttentionNotices } from '../../panel/attention.js';
import { Emitter } from '../../panel/event-emitter.js';
import { createMessageHandlers } from '../../panel/message-handlers.js';
import { ProviderKeys, readSettings } from './settings.js';
import { WebSearchKeys } from './web-search-keys.js';
import type { SmithApi } from './smith-api.js';
import { resolveStorageDir } from './storage-dir.js';
import { TaskController } from '../../panel/task-controller.js';
import { PanelReplays } from '../../panel/task-replays.js';
import { PanelBisects } from '../../panel/task-bisect.js';
import { VsCodeBisectViews } from './bisect-views.js';
import { stopScanHelpers } from '../../core/checkpoints/parallel-scan.js';
import { ChildProcessRunner } from '../../core/process/child-process-runner.js';
import { TerminalProcessPort } from './terminal-process-port.js';
import { createVsCodeHost } from './vscode-host.js';
import { askModesTrustInWindow, windowModeTrust } from './modes-trust-prompt.js';
import { GLOBAL_MODES_FILE, rooGlobalModesFile } from '../../core/modes/mode-locations.js';
import { VsCodeFileSystem } from './vscode-file-system.js';
import { WebviewInteractions } from '../../panel/webview-interactions.js';
import { editorWorkspaceRoots, localWorkspaceFolders } from '../../panel/workspace-folders.js';

/** What the entry hands the core. */
export interface SmithEntry {
  readonly log: vscode.LogOutputChannel;
  /** The side-bar chat, which the entry registered. */
  readonly chatView: { readonly isVisible: boolean };
  readonly markOpening: (mark: OpeningMark) => void;
}

/** The core's parts, as the entry uses them. */
export interface SmithCore {
  /** What activate() returns (through the entry, which loads the core on first use). */
  readonly api: SmithApi;
  readonly commands: Readonly<Record<CommandId, (...args: unknown[]) => unknown>>;
  readonly connectChat: ChatConnector;
  /** Stops what outlives disposal: the MCP servers (child processes) and the scan helper threads. */
  deactivate(): Promise<void>;
}

/**
 * Builds the host parts once for the extension's lifetime (everything goes on
 * context.subscriptions); each task's own resources live and die with the task in TaskController.
 */
export function startSmith(context: vscode.ExtensionContext, entry: SmithEntry): SmithCore {
  const { log } = entry;
  const storageDir = resolveStorageDir(context);
  applyStoredModelCatalog(storageDir, log);
  // The first folder on disk is the primary one; the others of a multi-root workspace are added to it.
  const folders = () => localWorkspaceFolders(vscode.workspace.workspaceFolders);
  const cwd = () => folders().primary;

  const keys = new ProviderKeys(context.secrets);
  const searchKeys = new WebSearchKeys(context.secrets);
  const diagnostics = new EditDiagnostics();
  const files = new VsCodeFileSystem();
  const diff = new DiffApproval(files);
  files.observe({ beforeWrite: (path) => diagnostics.snapshot(path), afterWrite: (path) => void diff.revealWritten(path) });
  const interactions = new WebviewInteractions(
    diff,
    () => editorWorkspaceRoots(folders()) ?? '',
    (message) => log.warn(message),
  );
  const processes = new TerminalProcessPort();
  const host = createVsCodeHost({ files, interactions, processes, diagnostics, log });
  const mcpService = new McpService({
    storageDir,
    cwd,
    folders: () => {
      const { primary, others } = folders();
      return primary ? [{ path: primary }, ...others] : [];
    },
    version: String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0'),
    discoveryThreshold: () => readSettings().mcpDiscoveryThreshold,
    registryUrl: () => readSettings().mcpRegistryUrl,
    log,
    secrets: context.secrets,
  });
  mcpService.start();
  const mentionSources = new EditorMentionSources();
  const settings = new VsCodePanelSettings({
    storageDir,
    host,
    keys,
    searchKeys,
    mcp: mcpService,
    mentionSources: { problems: () => mentionSources.problems(), terminal: () => mentionSources.terminal() },
  });
  const checkpointViews = new VsCodeCheckpointViews();
  const controller = new TaskController({
    storageDir,
    cwd,
    additionalRoots: () => folders().others,
    host,
    settings,
    interactions,
    edits: diff,
    mcp: mcpService,
    saveExport: saveWithDialog,
    checkpointViews,
    modeTrust: {
      check: windowModeTrust(storageDir),
      heldBack: (held) => void askModesTrustInWindow(held, storageDir, () => controller.modesChanged()),
    },
  });
  // The picker lists the modes again when a mode file is added, changed or removed.
  for (const pattern of ['**/.roomodes', '**/.smith/modes/*', '**/.smith/skills/*.{yaml,yml,json}']) {
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    const changed = () => controller.modesChanged();
    context.subscriptions.push(watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed));
  }
  for (const file of [join(storageDir, GLOBAL_MODES_FILE), rooGlobalModesFile(homedir())]) {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(dirname(file)), basename(file)));
    const changed = () => controller.modesChanged();
    context.subscriptions.push(watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed));
  }
  // A replay asks no one, and its commands run in the scratch copy as child processes, not in the user's terminals.
  const replays = new PanelReplays({
    storageDir,
    host: { ...host, processes: new ChildProcessRunner() },
    provider: (model) => settings.providerWithModel(model),
    maxIterations: () => readSettings().maxIterations,
    show: openAsUntitled,
  });
  const bisects = new PanelBisects({ storageDir, host, views: new VsCodeBisectViews(context.workspaceState), checkpointViews });

  const chatVisibility = new Emitter<void>();
  const wiring: ChatWiring = {
    extensionUri: context.extensionUri,
    visibilityChanged: () => chatVisibility.fire(),
    source: controller,
    handlers: createMessageHandlers(controller, mcpService, replays, bisects),
    log: (message) => log.warn(message),
    markOpening: entry.markOpening,
  };
  const editorPanel = new ChatEditorPanel(wiring);
  const attention = new AttentionNotices({
    interactions,
    taskTitle: (taskId) => controller.liveTasks().find((task) => task.id === taskId)?.title,
    onTaskEnded: controller.onTaskEnded,
    panelVisible: () => entry.chatView.isVisible || editorPanel.isVisible,
    onPanelVisibilityChanged: chatVisibility.event,
    enabled: () => readSettings().notifications,
    notify: (notice) => showAttentionNotice(notice, (taskId) => controller.openTask(taskId)),
  });

  context.subscriptions.push(
    keys,
    settings,
    mentionSources,
    checkpointViews,
    diff,
    interactions,
    processes,
    controller,
    replays,
    bisects,
    mcpService,
    vscode.workspace.onDidChangeWorkspaceFolders(() => mcpService.workspaceChanged()),
    editorPanel,
    attention,
    chatVisibility,
  );
  log.info(`Smith's core started; task storage: ${storageDir}`);
  return {
    api: { controller, keys, interactions, storageDir, mcp: mcpService },
    commands: commandHandlers(controller, editorPanel, { dir: storageDir, log }, searchKeys, keys),
    connectChat: (webview, visibility, loaded) => connectChatWebview(webview, visibility, wiring, loaded),
    async deactivate() {
      await mcpService.dispose();
      // The checkpoint scans' helper threads end with the extension, not with the host process.
      await stopScanHelpers();
    },
  };
}
