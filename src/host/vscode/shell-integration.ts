import * as vscode from 'vscode';

// The terminal shell-integration API is stable since VS Code 1.93, newer than the 1.90 the
// manifest and @types/vscode target, so it is described here and detected at run time.

/** One command run through shell integration. */
export interface ShellExecution {
  /** The command line as the shell reported it (may differ from what was sent, or be empty). */
  readonly commandLine?: { readonly value: string };
  /** The command's output, escape sequences included; call it as soon as the execution starts. */
  read(): AsyncIterable<string>;
}

/** A terminal's shell integration, once the shell has reported it. */
export interface ShellIntegration {
  readonly cwd: vscode.Uri | undefined;
  executeCommand(commandLine: string): ShellExecution;
}

/** The end of a command run through shell integration. */
interface ShellExecutionEnd {
  readonly terminal: vscode.Terminal;
  readonly execution: ShellExecution;
  /** Undefined when the shell did not report one (e.g. the command line was not a simple command). */
  readonly exitCode: number | undefined;
}

/** The start of a command in a terminal with shell integration, however it was typed. */
interface ShellExecutionStart {
  readonly terminal: vscode.Terminal;
  readonly execution: ShellExecution;
}

interface ShellIntegrationWindow {
  readonly onDidChangeTerminalShellIntegration?: vscode.Event<{ readonly terminal: vscode.Terminal; readonly shellIntegration: ShellIntegration }>;
  readonly onDidStartTerminalShellExecution?: vscode.Event<ShellExecutionStart>;
  readonly onDidEndTerminalShellExecution?: vscode.Event<ShellExecutionEnd>;
}

/** The terminal's shell integration, or undefined while the shell has not activated it (or cannot). */
export function shellIntegrationOf(terminal: vscode.Terminal): ShellIntegration | undefined {
  return (terminal as vscode.Terminal & { readonly shellIntegration?: ShellIntegration }).shellIntegration;
}

/** False when the user turned shell integration off (`terminal.integrated.shellIntegration.enabled`). */
export function shellIntegrationEnabled(): boolean {
  return vscode.workspace.getConfiguration('terminal.integrated').get<boolean>('shellIntegration.enabled', true) !== false;
}

/** The shell VS Code detected in the terminal (`bash`, `zsh`, `fish`, `pwsh`, ...), or the shell it was created with. */
export function shellOf(terminal: vscode.Terminal): string | undefined {
  const state = terminal.state as vscode.TerminalState & { readonly shell?: string };
  if (typeof state.shell === 'string' && state.shell !== '') return state.shell;
  const options = terminal.creationOptions as vscode.TerminalOptions;
  return typeof options.shellPath === 'string' ? options.shellPath : undefined;
}

/** True when this VS Code has the shell-integration API at all. */
export function hasShellIntegrationApi(): boolean {
  const win = vscode.window as unknown as ShellIntegrationWindow;
  return (
    typeof win.onDidChangeTerminalShellIntegration === 'function' &&
    typeof win.onDidStartTerminalShellExecution === 'function' &&
    typeof win.onDidEndTerminalShellExecution === 'function'
  );
}

/** Subscribes to "a terminal's shell integration activated or changed". */
function onDidChangeShellIntegration(listener: (terminal: vscode.Terminal) => void): vscode.Disposable {
  const event = (vscode.window as unknown as ShellIntegrationWindow).onDidChangeTerminalShellIntegration;
  return event ? event((e) => listener(e.terminal)) : new vscode.Disposable(() => {});
}

/** Subscribes to "a command started in a terminal with shell integration". */
export function onDidStartShellExecution(listener: (start: ShellExecutionStart) => void): vscode.Disposable {
  const event = (vscode.window as unknown as ShellIntegrationWindow).onDidStartTerminalShellExecution;
  return event ? event(listener) : new vscode.Disposable(() => {});
}

/** Subscribes to "a command run through shell integration ended". */
export function onDidEndShellExecution(listener: (end: ShellExecutionEnd) => void): vscode.Disposable {
  const event = (vscode.window as unknown as ShellIntegrationWindow).onDidEndTerminalShellExecution;
  return event ? event(listener) : new vscode.Disposable(() => {});
}

/** Resolves with the terminal's shell integration, or undefined after `timeoutMs` without it. */
export function waitForShellIntegration(terminal: vscode.Terminal, timeoutMs: number): Promise<ShellIntegration | undefined> {
  const now = shellIntegrationOf(terminal);
  if (now || !hasShellIntegrationApi()) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = (value: ShellIntegration | undefined) => {
      clearTimeout(timer);
      changed.dispose();
      closed.dispose();
      resolve(value);
    };
    const timer = setTimeout(() => done(shellIntegrationOf(terminal)), timeoutMs);
    const changed = onDidChangeShellIntegration((t) => {
      if (t === terminal && shellIntegrationOf(terminal)) done(shellIntegrationOf(terminal));
    });
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t === terminal) done(undefined);
    });
  });
}
