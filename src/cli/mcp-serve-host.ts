import type { Host } from '../core/ports.js';
import { ChildProcessRunner } from '../core/process/child-process-runner.js';
import { findExecutable } from '../core/search/find-executable.js';
import { NodeFileSystem } from '../core/workspace/node-file-system.js';

/** Why a question to the user is refused: under `smith mcp-serve` the MCP client is the only party, and stdio is its channel. */
const NO_USER_FEEDBACK = 'smith mcp-serve has no user to ask: it approves work inside its workspace and refuses paths outside it.';

/** The host behind `smith mcp-serve`: real files and processes, no terminal; notices go to stderr (stdout is the protocol). */
export function createMcpServeHost(err: NodeJS.WritableStream = process.stderr): Host {
  let ripgrep: Promise<string | undefined> | undefined;
  return {
    files: new NodeFileSystem(),
    approvals: { ask: async () => ({ approved: false, feedback: NO_USER_FEEDBACK }) },
    questions: { ask: async () => undefined },
    clock: { now: () => Date.now() },
    processes: new ChildProcessRunner(),
    ripgrepPath: () => (ripgrep ??= findExecutable('rg')),
    notify: (level, message) => err.write(`smith mcp-serve ${level}: ${message}\n`),
  };
}
