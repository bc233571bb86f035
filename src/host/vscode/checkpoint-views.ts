import * as vscode from 'vscode';
import type { CheckpointViews, ComparedFile } from '../../panel/panel-ports.js';

/** The read-only documents of a file as a checkpoint holds it (the left side of a comparison). */
const CHECKPOINT_SCHEME = 'smith-checkpoint';
/** Comparisons whose left sides stay readable (an older tab left open shows empty files). */
const COMPARISONS_KEPT = 10;

/**
 * Checkpoints in VS Code: a comparison opens the multi-file diff editor (checkpoint ↔ the files
 * now), and a restore that would overwrite the user's changes asks in a modal dialog.
 */
export class VsCodeCheckpointViews implements CheckpointViews, vscode.Disposable {
  private readonly contents = new Map<string, () => string | undefined>();
  private comparisons = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, {
      provideTextDocumentContent: (uri) => this.contents.get(uri.toString())?.() ?? '',
    });
  }

  async showChanges(title: string, files: readonly ComparedFile[]): Promise<void> {
    const comparison = ++this.comparisons;
    this.forget(comparison - COMPARISONS_KEPT);
    const side = (file: ComparedFile, which: string) => vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${file.path}`, query: `${comparison}-${which}` });
    const resources = files.map((file) => {
      const before = side(file, 'before');
      this.contents.set(before.toString(), file.before);
      // A later state's content (a bisect's failing checkpoint), else the file now; one deleted since is compared with an empty document.
      const after = file.after ? side(file, 'after') : file.existsNow ? vscode.Uri.file(file.absolutePath) : side(file, 'deleted');
      if (file.after) this.contents.set(after.toString(), file.after);
      return [vscode.Uri.file(file.absolutePath), before, after];
    });
    await vscode.commands.executeCommand('vscode.changes', title, resources);
  }

  async openFile(absolutePath: string): Promise<void> {
    await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(absolutePath));
  }

  async confirm(message: string, detail: string, action: string): Promise<boolean> {
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
  }

  dispose(): void {
    this.registration.dispose();
    this.contents.clear();
  }

  private forget(comparison: number): void {
    if (comparison <= 0) return;
    for (const key of [...this.contents.keys()]) if (key.endsWith(`?${comparison}-before`) || key.endsWith(`?${comparison}-after`)) this.contents.delete(key);
  }
}
