// "Smith: Generate Commit Message", the button in the Source Control view's title: the commit
// message of the repository whose button was pressed, for its staged changes (all of them when
// nothing is staged), written into that repository's commit input box. The diff comes from git
// itself and the request from the core (src/core/commit-message/), as for `smith commit-message`.
import * as vscode from 'vscode';
import { CommitChangesError, readCommitChanges } from '../../core/commit-message/commit-changes.js';
import { writeCommitMessage } from '../../core/commit-message/commit-message.js';
import { ProviderAbortedError } from '../../core/providers/types.js';
import { SecretRedactor } from '../../core/secrets/secret-redactor.js';
import { PROVIDER_IDS } from '../../shared/providers.js';
import { createHostProvider } from './host-provider.js';
import { commitMessageProviderConfig } from './mode-profiles.js';
import { readSettings, type ProviderKeys } from './settings.js';

/** The part of the built-in git extension's API (vscode.git, API version 1) that is used here. */
interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: { value: string };
}
interface GitApi {
  readonly repositories: readonly GitRepository[];
  getRepository(uri: vscode.Uri): GitRepository | null;
}

/** What the command did; returned to whoever ran it (a test, another extension). */
export type CommitMessageOutcome =
  | { readonly ok: true; readonly message: string; readonly repository: string }
  | { readonly ok: false; readonly reason: 'no-git' | 'no-repository' | 'no-changes' | 'setup' | 'cancelled' | 'failed'; readonly error: string };

async function gitApi(): Promise<GitApi | undefined> {
  const extension = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
  if (!extension) return undefined;
  const exports = extension.isActive ? extension.exports : await extension.activate();
  return exports?.getAPI(1);
}

/** The repository of the Source Control view whose button was pressed, else the only one, else the one the user picks. */
async function chosenRepository(api: GitApi, source: unknown): Promise<GitRepository | undefined> {
  const rootUri = (source as { rootUri?: unknown } | undefined)?.rootUri;
  if (rootUri instanceof vscode.Uri) return api.getRepository(rootUri) ?? undefined;
  if (api.repositories.length <= 1) return api.repositories[0];
  const picked = await vscode.window.showQuickPick(
    api.repositories.map((repository) => ({ label: vscode.workspace.asRelativePath(repository.rootUri, true), repository })),
    { placeHolder: 'The repository to write a commit message for' },
  );
  return picked?.repository;
}

/** Runs the command: shows its progress (cancellable) and every failure as a message; fills the input box on success. */
export async function generateCommitMessage(keys: ProviderKeys, log: vscode.LogOutputChannel, source?: unknown): Promise<CommitMessageOutcome> {
  const fail = (reason: Exclude<CommitMessageOutcome, { ok: true }>['reason'], error: string, level: 'info' | 'error' = 'error'): CommitMessageOutcome => {
    if (level === 'info') void vscode.window.showInformationMessage(error);
    else void vscode.window.showErrorMessage(error);
    return { ok: false, reason, error };
  };
  const api = await gitApi();
  if (!api) return fail('no-git', 'Smith needs the built-in Git extension (vscode.git) to write commit messages; it is disabled or missing.');
  const repository = await chosenRepository(api, source);
  if (!repository) return fail('no-repository', 'No git repository is open: open a folder that is in one.', 'info');
  const settings = readSettings();
  const chosen = await commitMessageProviderConfig(settings, keys);
  if ('problem' in chosen) return fail('setup', chosen.problem);
  const redactor = new SecretRedactor();
  // Every key Smith keeps, not only this provider's: any of them may sit in a changed file.
  redactor.set('provider', [chosen.config.apiKey, ...(await Promise.all(PROVIDER_IDS.map((id) => keys.get(id))))]);
  const folder = repository.rootUri.fsPath;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Smith: writing a commit message', cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const cancelled = token.onCancellationRequested(() => abort.abort());
      try {
        progress.report({ message: 'reading the changes…' });
        const changes = await readCommitChanges(folder, 'auto', { signal: abort.signal });
        const what = changes.scope === 'staged' ? 'staged changes' : 'all changes';
        progress.report({ message: `${chosen.config.model || chosen.config.provider} is describing the ${what} (${changes.files.length} files)…` });
        const message = await writeCommitMessage(changes, {
          provider: createHostProvider(chosen.config),
          redactor,
          signal: abort.signal,
          onRetry: (info) => progress.report({ message: `${info.error.message} Retrying (${info.attempt}/${info.maxRetries})…` }),
        });
        if (abort.signal.aborted) return { ok: false, reason: 'cancelled', error: 'Cancelled.' } as const;
        repository.inputBox.value = message;
        return { ok: true, message, repository: folder } as const;
      } catch (error) {
        if (abort.signal.aborted || error instanceof ProviderAbortedError) return { ok: false, reason: 'cancelled', error: 'Cancelled.' } as const;
        if (error instanceof CommitChangesError) {
          if (error.code === 'no-changes')
            return fail('no-changes', `No changes to write a commit message for in ${vscode.workspace.asRelativePath(folder, true)}.`, 'info');
          return fail('failed', `Smith could not read the changes: ${error.message}`);
        }
        log.warn(`Commit message: ${(error as Error).message}`);
        return fail('failed', `Smith could not write a commit message: ${(error as Error).message}`);
      } finally {
        cancelled.dispose();
      }
    },
  );
}
