// The extension's entry, kept small: VS Code loads and runs it before it shows the chat view, so it
// only registers the view and the commands. Smith's core (src/host/vscode/extension-core.ts, bundled on its
// own as dist/extension-core.js) loads on first use: when a command runs, when the API is used,
// or, for the view, right after its page was handed to the webview, so the core loads while the
// webview fetches and runs its script.
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { ChatViewProvider } from './host/vscode/chat-view-provider.js';
import { CHAT_VIEW_ID, COMMAND_IDS } from './host/vscode/contributed-ids.js';
import { markOpening, reportActivation } from './host/vscode/opening-report.js';
import type { SmithApi } from './host/vscode/smith-api.js';
import type { SmithCore } from './host/vscode/extension-core.js';

// deactivate() waits for it: its MCP servers are child processes that must not outlive the host.
let core: SmithCore | undefined;

/** Registers the view and the commands; everything else loads with the core. */
export function activate(context: vscode.ExtensionContext): SmithApi {
  const startedAt = performance.now();
  const loadStartedAt = (globalThis as { __smithLoadStart?: number }).__smithLoadStart ?? startedAt;
  markOpening('bundleLoadStarted', loadStartedAt);
  markOpening('activateStarted', startedAt);
  const log = vscode.window.createOutputChannel('Smith', { log: true });

  const loadCore = (): SmithCore => {
    if (core) return core;
    const loadingAt = performance.now();
    markOpening('coreLoadStarted', loadingAt);
    // A plain require: the source file under tsx; in the bundle, the core's bundle beside it (esbuild.mjs).
    const { startSmith } = require('./host/vscode/extension-core.js') as typeof import('./host/vscode/extension-core.js');
    core = startSmith(context, { log, chatView, markOpening });
    markOpening('coreLoaded');
    log.info(`Smith's core loaded in ${(performance.now() - loadingAt).toFixed(1)} ms`);
    return core;
  };
  let failureShown = false;
  const chatView = new ChatViewProvider(context.extensionUri, {
    get loaded() {
      return core !== undefined;
    },
    connector: () => loadCore().connectChat,
    failed: (error) => {
      log.error(`Smith could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (failureShown) return;
      failureShown = true;
      void vscode.window.showErrorMessage(`Smith could not start: ${error instanceof Error ? error.message : String(error)}. See the Smith output channel.`);
    },
  });

  context.subscriptions.push(
    log,
    chatView,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, chatView),
    ...COMMAND_IDS.map((id) => vscode.commands.registerCommand(id, (...args: unknown[]) => loadCore().commands[id](...args))),
  );
  const finishedAt = performance.now();
  markOpening('activateFinished', finishedAt);
  log.info(`Smith activated in ${(finishedAt - startedAt).toFixed(1)} ms (${(finishedAt - loadStartedAt).toFixed(1)} ms with loading)`);
  reportActivation({ activationMs: finishedAt - startedAt, loadAndActivationMs: finishedAt - loadStartedAt });
  // The API's parts load the core when first read.
  return {
    get controller() {
      return loadCore().api.controller;
    },
    get keys() {
      return loadCore().api.keys;
    },
    get interactions() {
      return loadCore().api.interactions;
    },
    get storageDir() {
      return loadCore().api.storageDir;
    },
    get mcp() {
      return loadCore().api.mcp;
    },
  };
}

/** Everything else is disposed from context.subscriptions; this waits until the MCP servers are down. */
export async function deactivate(): Promise<void> {
  const loaded = core;
  core = undefined;
  await loaded?.deactivate();
}
