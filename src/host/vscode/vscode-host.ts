import * as vscode from 'vscode';
import type { Host, ProcessPort } from '../../core/ports.js';
import type { EditDiagnostics } from './edit-diagnostics.js';
import { findRipgrep } from './ripgrep-path.js';
import type { VsCodeFileSystem } from './vscode-file-system.js';
import { VsCodeNotebooks } from './vscode-notebooks.js';
import type { WebviewInteractions } from '../../panel/webview-interactions.js';

/** The parts the VS Code host is made of; each has its own file. */
interface VsCodeHostParts {
  readonly files: VsCodeFileSystem;
  readonly interactions: WebviewInteractions;
  readonly processes: ProcessPort;
  readonly diagnostics: EditDiagnostics;
  readonly log: vscode.LogOutputChannel;
}

/** The engine's Host in VS Code: editor-aware files, panel approvals, terminal commands, language-server errors, notebook edits through the notebook editor. */
export function createVsCodeHost(parts: VsCodeHostParts): Host {
  let ripgrep: Promise<string | undefined> | undefined;
  return {
    files: parts.files,
    approvals: parts.interactions.approvals,
    questions: parts.interactions.questions,
    clock: { now: () => Date.now() },
    processes: parts.processes,
    ripgrepPath: () => (ripgrep ??= findRipgrep()),
    notify: (level, message) => {
      if (level === 'error') {
        parts.log.error(message);
        void vscode.window.showErrorMessage(`Smith: ${message}`);
      } else if (level === 'warning') {
        parts.log.warn(message);
        void vscode.window.showWarningMessage(`Smith: ${message}`);
      } else {
        // Info notices (retries and the like) would be noise as pop-ups.
        parts.log.info(message);
        vscode.window.setStatusBarMessage(`Smith: ${message}`, 5000);
      }
    },
    diagnosticsAfterEdit: (absolutePath) => parts.diagnostics.newErrors(absolutePath),
    notebooks: new VsCodeNotebooks(),
  };
}
