import * as vscode from 'vscode';
import { ProviderAbortedError, ProviderError } from '../../core/providers/types.js';

/**
 * A failure of a VS Code language-model request as a ProviderError worded for the user: the codes
 * VS Code's `LanguageModelError` carries (no consent, a model that is gone, a quota reached), a
 * cancellation, or whatever the model's extension threw. `model` names the model ("GPT-4.1 (copilot)").
 */
export function lmProviderError(error: unknown, model: string, signal: AbortSignal | undefined): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal?.aborted || error instanceof vscode.CancellationError) return new ProviderAbortedError();
  const detail = error instanceof Error ? error.message : String(error);
  switch (error instanceof vscode.LanguageModelError ? error.code : undefined) {
    case vscode.LanguageModelError.NoPermissions.name:
      return new ProviderError(
        `Smith may not use ${model}: VS Code did not get your consent for it (${detail}). Run the task again and allow Smith when VS Code asks, or allow it in the Accounts menu under Manage Language Model Access.`,
        403,
      );
    case vscode.LanguageModelError.NotFound.name:
      return new ProviderError(
        `${model} is no longer available in VS Code (${detail}). Its extension may be disabled or signed out; choose another model in Smith's settings.`,
        404,
      );
    case vscode.LanguageModelError.Blocked.name:
      // A quota or rate limit of the model's extension: worth another try after a wait.
      return new ProviderError(`The extension that provides ${model} refused the request for now: its quota or rate limit is reached (${detail}).`, 429, true);
    default:
      return new ProviderError(`${model} failed: ${detail}`);
  }
}
