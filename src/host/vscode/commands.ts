import * as vscode from 'vscode';
import type { ChatEditorPanel } from './chat-editor-panel.js';
import { refreshModelCatalogCommand } from './model-catalog-command.js';
import { selectionContext } from './selection-context.js';
import type { TaskController } from '../../panel/task-controller.js';
import type { WebSearchKeys } from './web-search-keys.js';
import { importSessionCommand } from './import-session-command.js';
import type { ProviderKeys } from './settings.js';
import { generateCommitMessage } from './generate-commit-message.js';
import { CHAT_VIEW_ID, type CommandId } from './contributed-ids.js';

/** What each command does; each is a line or two on top of the controller (src/extension.ts registers them). */
export function commandHandlers(
  controller: TaskController,
  editorPanel: ChatEditorPanel,
  storage: { readonly dir: string; readonly log: vscode.LogOutputChannel },
  searchKeys: WebSearchKeys,
  keys: ProviderKeys,
): Record<CommandId, (...args: unknown[]) => unknown> {
  // The chat the user already has open in a tab is the one to bring forward.
  const showChat = async () => {
    if (editorPanel.isOpen) editorPanel.open();
    else await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  };
  const commands: Record<CommandId, (...args: unknown[]) => unknown> = {
    'smith.newTask': async () => {
      await controller.clearTask();
      await showChat();
    },
    'smith.cancelTask': () => controller.cancel(),
    'smith.focusPanel': showChat,
    'smith.openInEditor': () => {
      editorPanel.open();
    },
    'smith.addSelection': async () => {
      const editor = vscode.window.activeTextEditor;
      const context = editor && selectionContext(editor);
      if (!context) {
        void vscode.window.showInformationMessage('Select some code first, then add it to Smith.');
        return;
      }
      // Shown first, so the chat the user sees is the one that takes the text.
      await showChat();
      controller.insertText(context);
    },
    'smith.openSettings': async () => {
      controller.showView('settings');
      await showChat();
    },
    'smith.openHistory': async () => {
      controller.showView('history');
      await showChat();
    },
    'smith.openMcp': async () => {
      controller.showView('mcp');
      await showChat();
    },
    'smith.refreshModelCatalog': () => refreshModelCatalogCommand(storage.dir, storage.log),
    'smith.setWebSearchKey': () => searchKeys.askAndStore(),
    // From the Explorer's context menu the argument is the chosen file or folder.
    'smith.importSession': (given) =>
      importSessionCommand(
        {
          storageDir: storage.dir,
          keys,
          openTask: async (taskId) => {
            await controller.openTask(taskId);
            await showChat();
          },
        },
        given,
      ),
    // From the Source Control view's title the argument is that view's SourceControl (its rootUri).
    'smith.generateCommitMessage': (source) => generateCommitMessage(keys, storage.log, source),
  };
  return commands;
}
