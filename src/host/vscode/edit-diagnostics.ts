import * as vscode from 'vscode';

/** How long to wait for language servers after a write. */
interface EditDiagnosticsOptions {
  /** Longest wait for the first diagnostics update of the file (default 1500 ms). */
  readonly waitMs?: number;
  /** Quiet time after an update before the list counts as settled (default 300 ms). */
  readonly settleMs?: number;
}

/**
 * Finds the errors an edit introduced: the file's errors before the write are remembered, and
 * after it the errors that were not there before are reported (matched by message, source and
 * code, not position, since an edit shifts lines).
 */
export class EditDiagnostics {
  private readonly before = new Map<string, vscode.Diagnostic[]>();

  constructor(private readonly options: EditDiagnosticsOptions = {}) {}

  /** Remembers the file's current errors; call right before writing it. */
  snapshot(absolutePath: string): void {
    this.before.set(absolutePath, errorsOf(vscode.Uri.file(absolutePath)));
  }

  /** The file's new errors, one line each, after waiting briefly for language servers. */
  async newErrors(absolutePath: string): Promise<string[]> {
    const uri = vscode.Uri.file(absolutePath);
    const before = this.before.get(absolutePath) ?? [];
    this.before.delete(absolutePath);
    // Language servers analyse open documents; opening (not showing) one makes them look.
    await Promise.resolve(vscode.workspace.openTextDocument(uri)).catch(() => undefined);
    await this.settled(uri);
    const remaining = new Map<string, number>();
    for (const d of before) remaining.set(identity(d), (remaining.get(identity(d)) ?? 0) + 1);
    const fresh = errorsOf(uri).filter((d) => {
      const left = remaining.get(identity(d)) ?? 0;
      if (left > 0) remaining.set(identity(d), left - 1);
      return left === 0;
    });
    const shown = vscode.workspace.asRelativePath(uri, false);
    return fresh.map((d) => `${shown}:${d.range.start.line + 1}:${d.range.start.character + 1} - ${describe(d)}`);
  }

  private settled(uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    return new Promise((resolve) => {
      let timer = setTimeout(finish, this.options.waitMs ?? 1500);
      const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
        if (!event.uris.some((u) => u.toString() === key)) return;
        clearTimeout(timer);
        timer = setTimeout(finish, this.options.settleMs ?? 300);
      });
      function finish(): void {
        subscription.dispose();
        resolve();
      }
    });
  }
}

function errorsOf(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
}

function codeOf(d: vscode.Diagnostic): string {
  const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
  return code === undefined ? '' : String(code);
}

function identity(d: vscode.Diagnostic): string {
  return `${d.source ?? ''}\u0000${codeOf(d)}\u0000${d.message}`;
}

function describe(d: vscode.Diagnostic): string {
  const code = codeOf(d);
  const origin = [d.source, code].filter(Boolean).join(' ');
  return origin ? `${d.message} (${origin})` : d.message;
}
