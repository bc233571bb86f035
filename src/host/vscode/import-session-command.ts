// "Smith: Import Session…": a Claude Code session file or a Cline / Roo Code task folder, chosen in
// a file picker, written as a task (src/core/import) and opened in the panel. See docs/import-sessions.md.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import { claudeCodeProjectDir } from '../../core/import/claude-code-projects.js';
import { ImportError } from '../../core/import/import-types.js';
import { readSession } from '../../core/import/import-session.js';
import { writeImportedTask } from '../../core/import/write-imported-task.js';
import { IMPORT_SOURCE_NAMES } from '../../core/log/conversation-events.js';
import { SecretRedactor } from '../../core/secrets/secret-redactor.js';
import { PROVIDER_IDS } from '../../shared/providers.js';
import type { ProviderKeys } from './settings.js';

/** What the command needs of the extension. */
export interface ImportSessionDeps {
  readonly storageDir: string;
  readonly keys: ProviderKeys;
  /** Opens the imported task in the panel's chat and shows the chat. */
  openTask(taskId: string): Promise<void>;
}

/** What the import did: the task written and how many things were not carried over; undefined when nothing was chosen or it failed. */
export interface ImportSessionOutcome {
  readonly taskId: string;
  readonly notCarried: number;
}

/**
 * Imports the session `given` (a file or folder from the Explorer's context menu), or asks for one;
 * opens the task, and says why when it cannot.
 */
export async function importSessionCommand(deps: ImportSessionDeps, given?: unknown): Promise<ImportSessionOutcome | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const path = given instanceof vscode.Uri && given.scheme === 'file' ? sessionPathOf(given.fsPath) : await askForSession(folder);
  if (!path) return undefined;
  try {
    const session = await readSession(path);
    // A session that does not name its folder runs in the window's.
    const cwd = session.cwd ?? folder;
    // The keys Smith has are redacted from the imported text, as from every task's log.
    const redactor = new SecretRedactor();
    redactor.set('provider', await Promise.all(PROVIDER_IDS.map((provider) => deps.keys.get(provider))));
    const written = await writeImportedTask({ ...session, cwd }, { storageDir: deps.storageDir, redactor });
    await deps.openTask(written.taskId);
    const left = written.notCarried.length;
    void vscode.window.showInformationMessage(
      `Imported the ${IMPORT_SOURCE_NAMES[session.source]} session as a task.${left > 0 ? ` ${left} thing${left === 1 ? ' was' : 's were'} not carried over (listed in the chat).` : ''}`,
    );
    return { taskId: written.taskId, notCarried: left };
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    void vscode.window.showErrorMessage(`Smith could not import ${path}: ${error.message}`);
    return undefined;
  }
}

/** A Cline or Roo Code task is its folder: the Explorer's menu on its conversation file means the folder. */
function sessionPathOf(path: string): string {
  return basename(path) === 'api_conversation_history.json' ? dirname(path) : path;
}

/** The file picker, opened where Claude Code keeps this folder's sessions when there are any. */
async function askForSession(folder: string | undefined): Promise<string | undefined> {
  const projects = folder ? claudeCodeProjectDir(folder, process.env, homedir()) : undefined;
  const picked = await vscode.window.showOpenDialog({
    title: 'Import a Claude Code session (.jsonl) or a Cline / Roo Code task folder',
    openLabel: 'Import',
    canSelectFiles: true,
    canSelectFolders: true,
    canSelectMany: false,
    ...(projects && existsSync(projects) ? { defaultUri: vscode.Uri.file(projects) } : {}),
  });
  return picked?.[0]?.fsPath;
}
