// Agent Skills in the CLI: --skill-dir folders checked, and the workspace's skills offered only in a
// trusted workspace (--trust-workspace, an earlier answer, or a question on a terminal).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentSkillSettings } from '../core/session/task-environment.js';
import { loadSkillCatalog } from '../core/skills/skill-catalog.js';
import { rememberWorkspaceSkills, workspaceSkillsDecision } from '../core/skills/skill-trust.js';
import { UsageError } from './args.js';
import type { LineSource } from './line-source.js';
import type { Style } from './style.js';

interface CliSkillInput {
  readonly cwd: string;
  readonly roots: readonly string[];
  readonly storageDir: string;
  readonly skillDirs: readonly string[];
  readonly trustWorkspace: boolean;
  readonly style: Style;
  /** A terminal to ask on; without one an untrusted workspace's skills stay off. */
  readonly ask?: LineSource;
}

/** The run's skill settings; says on stderr which workspace skills wait for trust. */
export async function cliSkillSettings(input: CliSkillInput): Promise<AgentSkillSettings> {
  const skillDirs = input.skillDirs.map((dir) => resolve(dir));
  for (const [i, dir] of skillDirs.entries()) {
    if (!isFolder(dir)) throw new UsageError(`--skill-dir ${input.skillDirs[i]}: no such folder`);
  }
  const trusted = () => workspaceSkillsDecision(input.storageDir, input.cwd, input.trustWorkspace) === 'trusted';
  if (!trusted()) {
    const waiting = loadSkillCatalog({ workspaceRoots: input.roots, storageDir: input.storageDir, skillDirs, workspaceTrusted: true }).entries.filter(
      (entry) => entry.scope === 'workspace' && entry.offered,
    );
    if (waiting.length > 0) {
      const names = waiting.map((entry) => `${entry.name} (${entry.location})`).join(', ');
      const decision = workspaceSkillsDecision(input.storageDir, input.cwd);
      if (input.ask && decision === 'unknown') {
        process.stderr.write(`\n${input.style.bold(`? This workspace has skills: ${input.style.text(names)}`)}\n`);
        process.stderr.write(
          `${input.style.dim("A skill's instructions and scripts come from the repository. Offer them only for a repository you know; the answer is remembered for this folder.")}\n`,
        );
        const answer = await input.ask.next('Offer them to the model? [y]es / [N]o: ');
        if (answer !== undefined) rememberWorkspaceSkills(input.storageDir, input.cwd, /^(y|yes)$/i.test(answer.trim()));
      }
      if (!trusted())
        process.stderr.write(
          `${input.style.yellow(`The skills of this workspace (${input.style.text(names)}) are not offered: this workspace is not trusted (--trust-workspace trusts it for this run).`)}\n`,
        );
    }
  }
  return { skillDirs, workspaceTrusted: trusted };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
