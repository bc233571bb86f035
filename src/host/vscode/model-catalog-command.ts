import * as vscode from 'vscode';
import { loadFetchedCatalog, refreshModelCatalog } from '../../core/providers/model-catalog-updates.js';
import { readSettings } from './settings.js';

/** Puts the catalogue fetched earlier (by this command or `smith models refresh`) to use; what was left out goes to the log. */
export function applyStoredModelCatalog(storageDir: string, log: vscode.LogOutputChannel): void {
  for (const problem of loadFetchedCatalog(storageDir).problems) log.warn(`Model catalogue: left out ${problem}`);
}

/**
 * "Smith: Refresh Model Catalogue": fetches the catalogue from `smith.modelCatalogUrl` (or a URL or
 * file the user types) into Smith's storage, where the CLI reads it too.
 */
export async function refreshModelCatalogCommand(storageDir: string, log: vscode.LogOutputChannel): Promise<void> {
  const source =
    readSettings().modelCatalogUrl ||
    (await vscode.window.showInputBox({
      title: 'Refresh Smith Model Catalogue',
      prompt: 'An http(s) URL or an absolute file path of a model catalogue (set smith.modelCatalogUrl to skip this question)',
      ignoreFocusOut: true,
    }));
  if (!source) return;
  try {
    const refreshed = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Smith: refreshing the model catalogue…' },
      () => refreshModelCatalog(source.trim(), storageDir),
    );
    for (const problem of refreshed.problems) log.warn(`Model catalogue: left out ${problem}`);
    const leftOut = refreshed.problems.length > 0 ? ` ${refreshed.problems.length} left out (see the Smith output).` : '';
    void vscode.window.showInformationMessage(`Smith knows ${refreshed.count} models from ${source}.${leftOut}`);
  } catch (error) {
    void vscode.window.showErrorMessage(`Smith could not refresh the model catalogue: ${(error as Error).message}`);
  }
}
