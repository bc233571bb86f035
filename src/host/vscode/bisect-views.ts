import * as vscode from 'vscode';
import type { BisectViews } from '../../panel/panel-ports.js';

/** The key of the last test command per workspace folder, in the window's workspace state. */
const COMMAND_KEY = 'smith.bisect.testCommand';

/** "Bisect…" in VS Code: an input box for the test command (remembered per workspace), a progress notification, a message with actions. */
export class VsCodeBisectViews implements BisectViews {
  constructor(private readonly state: Pick<vscode.Memento, 'get' | 'update'>) {}

  askTestCommand(value: string): Promise<string | undefined> {
    return Promise.resolve(
      vscode.window.showInputBox({
        title: 'Bisect the task',
        prompt: 'The command that passes before the task and fails after it (exit code 0 passes; it runs in a scratch copy of each checkpoint)',
        value,
        ignoreFocusOut: true,
        validateInput: (text) => (text.trim() === '' ? 'Name a command, e.g. npm test' : undefined),
      }),
    );
  }

  rememberedCommand(cwd: string): string | undefined {
    return this.state.get<Record<string, string>>(COMMAND_KEY)?.[cwd];
  }

  async remember(cwd: string, command: string): Promise<void> {
    await this.state.update(COMMAND_KEY, { ...this.state.get<Record<string, string>>(COMMAND_KEY), [cwd]: command });
  }

  withProgress<T>(title: string, work: (report: (line: string) => void, signal: AbortSignal) => Promise<T>): Promise<T> {
    return Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        return work((line) => progress.report({ message: line }), controller.signal);
      }),
    );
  }

  async showResult(message: string, found: boolean, actions: readonly string[]): Promise<string | undefined> {
    return found ? vscode.window.showInformationMessage(message, ...actions) : vscode.window.showWarningMessage(message, ...actions);
  }
}
