import * as vscode from 'vscode';
import { editorModelFacts, NO_EDITOR_MODELS } from '../../core/providers/editor-models.js';
import type { ModelList } from '../../shared/protocol.js';

/**
 * The picker's list for VS Code's language models: every chat model the editor offers now, with
 * what the API tells of it (name and vendor, input limit as the window, images and tool calls where
 * this VS Code says). Never throws: a failure is the list's `error`.
 */
export async function editorModelList(baseUrl: string): Promise<ModelList> {
  const base = { provider: 'vscode-lm' as const, baseUrl, source: 'server' as const };
  try {
    const models = await vscode.lm.selectChatModels();
    if (models.length === 0) return { ...base, models: [], error: `${NO_EDITOR_MODELS}.` };
    return { ...base, models: models.map((model) => editorModelFacts(model)) };
  } catch (error) {
    return { ...base, models: [], error: `VS Code did not list its language models: ${error instanceof Error ? error.message : String(error)}` };
  }
}
