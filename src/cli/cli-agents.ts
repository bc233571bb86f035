// The CLI's custom agents: the user's folders (~/.claude/agents beside Smith's storage), and the
// workspace's agent files, used once trusted: --trust-workspace, or a yes on a terminal.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { WorkspaceTrust } from '../core/mcp/workspace-trust.js';
import { loadAgents, type AgentCatalog } from '../core/subagents/agent-files.js';
import type { TaskEnvironmentInput } from '../core/session/task-environment.js';
import type { LineSource } from './line-source.js';
import type { Style } from './style.js';

/** Where the CLI's agents come from and how their trust is judged; asks once on a terminal about new workspace agent files. */
export async function cliAgentSettings(
  storageDir: string,
  cwd: string,
  trustAll: boolean,
  ask?: { readonly lines: LineSource; readonly err: NodeJS.WritableStream; readonly style: Style },
): Promise<NonNullable<TaskEnvironmentInput['agents']>> {
  const trust = new WorkspaceTrust({ storageDir, trustAll });
  const userDirs = [join(homedir(), '.claude', 'agents')];
  if (ask) {
    const held = loadAgents({ userDirs: [], workspaceRoot: cwd, trust: trust.check }).heldBack;
    if (held?.decision === 'unknown') {
      const { lines, err, style } = ask;
      err.write(`\n${style.bold("? This workspace's agent files define agents the model may delegate to:")}\n`);
      for (const file of held.files) err.write(`  ${style.text(file)}\n`);
      err.write(
        `${style.dim('Their prompts steer the sub-agents and their tools may include edits and commands (each still approved). Trust them only for a repository you know; the answer is remembered until a file changes.')}\n`,
      );
      const answer = await lines.next('Use them? [y]es / [N]o: ');
      if (answer !== undefined) trust.remember(held.trustKey, held.fingerprint, /^(y|yes)$/i.test(answer.trim()));
    }
  }
  return { userDirs, trust: trust.check };
}

/** Says on stderr what was wrong with agent files and which workspace agents are not used. */
export function reportAgents(catalog: AgentCatalog, err: NodeJS.WritableStream, style: Style): void {
  for (const problem of catalog.problems) err.write(`${style.yellow(`Warning: ${style.text(problem)}`)}\n`);
  if (catalog.heldBack) {
    const count = catalog.heldBack.files.length;
    err.write(
      `${style.yellow(`${count} agent file${count === 1 ? '' : 's'} of this workspace not used: it is not trusted (--trust-workspace trusts it for this run).`)}\n`,
    );
  }
}
