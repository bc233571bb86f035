import type { Host } from '../core/ports.js';
import { ChildProcessRunner } from '../core/process/child-process-runner.js';
import { findExecutable } from '../core/search/find-executable.js';
import { NodeFileSystem } from '../core/workspace/node-file-system.js';
import type { LineSource } from './line-source.js';
import type { Style } from './style.js';
import { TerminalApprovals, TerminalQuestions } from './terminal-prompts.js';

/** The headless host: real files, child processes, `rg` from PATH, terminal approvals and questions. */
export function createCliHost(lines: LineSource | undefined, err: NodeJS.WritableStream, style: Style): Host {
  let ripgrep: Promise<string | undefined> | undefined;
  return {
    files: new NodeFileSystem(),
    approvals: new TerminalApprovals(lines, err, style),
    questions: new TerminalQuestions(lines, err, style),
    clock: { now: () => Date.now() },
    processes: new ChildProcessRunner(),
    ripgrepPath: () => (ripgrep ??= findExecutable('rg')),
    notify: (level, message) => {
      const paint = level === 'error' ? style.red : level === 'warning' ? style.yellow : style.dim;
      err.write(`${paint(style.text(message))}\n`);
    },
  };
}
