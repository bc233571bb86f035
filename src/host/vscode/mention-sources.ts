import * as vscode from 'vscode';
import type { EditorProblem } from '../../core/context/editor-problems.js';
import { stripAnsi } from '../../core/process/output-buffer.js';
import { onDidStartShellExecution, type ShellExecution } from './shell-integration.js';

/** Output kept per terminal: the latest command's, capped to its end. */
const MAX_TERMINAL_CHARS = 20_000;

/**
 * What only the editor can attach to a message: `@problems` (the workspace's errors and warnings)
 * and `@terminal` (the latest command's output in the active terminal, read through shell
 * integration as it runs; a terminal without shell integration has none to give).
 */
export class EditorMentionSources implements vscode.Disposable {
  private readonly latest = new WeakMap<vscode.Terminal, { readonly command: string; output: string }>();
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.subscription = onDidStartShellExecution((start) => void this.capture(start.terminal, start.execution));
  }

  async problems(): Promise<EditorProblem[]> {
    const problems: EditorProblem[] = [];
    for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
      for (const diagnostic of diagnostics) {
        if (diagnostic.severity !== vscode.DiagnosticSeverity.Error && diagnostic.severity !== vscode.DiagnosticSeverity.Warning) continue;
        problems.push({
          path: uri.scheme === 'file' ? uri.fsPath : uri.toString(),
          label: vscode.workspace.asRelativePath(uri),
          line: diagnostic.range.start.line + 1,
          column: diagnostic.range.start.character + 1,
          severity: diagnostic.severity === vscode.DiagnosticSeverity.Error ? 'error' : 'warning',
          message: diagnostic.message,
          ...(diagnostic.source ? { source: diagnostic.source } : {}),
        });
      }
    }
    return problems;
  }

  async terminal(): Promise<string> {
    const terminal = vscode.window.activeTerminal;
    if (!terminal) return '(no terminal is open)';
    const latest = this.latest.get(terminal);
    if (!latest) return `(nothing captured from the terminal "${terminal.name}": it has run no command since Smith started, or it has no shell integration)`;
    return `$ ${latest.command}\n${stripAnsi(latest.output.replace(/\r\n/g, '\n'))}`;
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private async capture(terminal: vscode.Terminal, execution: ShellExecution): Promise<void> {
    const entry = { command: execution.commandLine?.value ?? '', output: '' };
    this.latest.set(terminal, entry);
    try {
      for await (const chunk of execution.read()) {
        entry.output = (entry.output + chunk).slice(-MAX_TERMINAL_CHARS);
      }
    } catch {
      // The terminal closed while the command ran: what was read is kept.
    }
  }
}
