import type { ProcessPort } from '../ports.js';
import { findSandbox, type SandboxRequest } from '../process/task-sandbox.js';

/** How a replay runs the model's commands, and what it tells the user before it starts. */
export interface ReplayCommands {
  /** `sandboxed`: under bubblewrap, the scratch copy the only writable place and no network; `not run`; `unconfined`. */
  readonly mode: 'sandboxed' | 'not run' | 'unconfined';
  readonly processes: ProcessPort;
  readonly sandbox?: SandboxRequest;
  readonly notice: string;
}

/** The flag (CLI) that lets a replay without a sandbox run commands anyway. */
const UNCONFINED_FLAG = '--run-commands-unconfined';

/**
 * A replay never touches the real workspace: its commands run in the sandbox with the scratch
 * copy as their only writable place and no network. Where there is no sandbox, a command could
 * write anywhere (an absolute path, `cd ..`, a link in the copy), so none is run, and the model
 * is told so, unless the user asked for unconfined commands.
 */
export async function replayCommands(runUnconfined: boolean, processes: ProcessPort): Promise<ReplayCommands> {
  const found = await findSandbox();
  if (!('reason' in found)) {
    return {
      mode: 'sandboxed',
      processes,
      sandbox: { network: false, allowedHosts: [] },
      notice: "The replay's commands run in the sandbox: only the scratch copy is writable, and there is no network.",
    };
  }
  if (runUnconfined) {
    return {
      mode: 'unconfined',
      processes,
      notice: `The replay's commands run unconfined (${UNCONFINED_FLAG}): ${found.reason}, so a command can change files outside the scratch copy, your workspace included.`,
    };
  }
  const refusal = `Commands are not run in this replay: ${found.reason}, and without it a command could change files outside the scratch copy.`;
  return {
    mode: 'not run',
    processes: {
      start: () => {
        throw new Error(`${refusal} Go on without running commands.`);
      },
    },
    notice: `${refusal} The model is told they are not run. To run them anyway, unconfined, pass ${UNCONFINED_FLAG}.`,
  };
}
