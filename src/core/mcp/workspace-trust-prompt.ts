import type { McpConfig } from './mcp-config.js';
import type { UntrustedWorkspaceServers, WorkspaceTrust } from './workspace-trust.js';

/** Asks the user about a workspace's servers: true or false is remembered, undefined (dismissed) is not. */
export type AskWorkspaceTrust = (untrusted: UntrustedWorkspaceServers) => PromiseLike<boolean | undefined>;

/**
 * The question an editor host asks when a configuration holds back a workspace's servers: once per
 * set of launch settings (a burst of reloads shows one question), with the answer remembered and
 * applied at once through `onAnswered` (re-reading the configuration).
 */
export class WorkspaceTrustPrompt {
  private asking: string | undefined;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly trust: WorkspaceTrust,
    private readonly ask: AskWorkspaceTrust,
    private readonly onAnswered: () => void,
  ) {}

  /** Looks at a configuration just read; asks when its workspace servers wait for an answer nobody gave yet. */
  consider(config: McpConfig): void {
    const untrusted = config.untrusted;
    if (untrusted?.decision !== 'unknown' || this.asking === untrusted.fingerprint) return;
    this.asking = untrusted.fingerprint;
    this.pending = (async () => {
      try {
        const answer = await this.ask(untrusted);
        if (answer === undefined) return;
        this.trust.remember(untrusted.workspace, untrusted.fingerprint, answer);
        this.onAnswered();
      } finally {
        if (this.asking === untrusted.fingerprint) this.asking = undefined;
      }
    })();
  }

  /** Resolves when the question asked last has been answered and applied. */
  settled(): Promise<void> {
    return this.pending;
  }
}
