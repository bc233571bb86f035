// Agent Skills in the CLI: --skill-dir folders checked, and the workspace's skills offered only once
// trusted for exactly their files (--trust-workspace, an earlier answer, or a question on a terminal).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentSkillSettings } from '../core/session/task-environment.js';
import { loadSkillCatalog } from '../core/skills/skill-catalog.js';
import { rememberWorkspaceSkills, workspaceSkillsDecision } from '../core/skills/skill-trust.js';
import { UsageError } from './usage-error.js';
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
  const trusted = (fingerprint: string) => workspaceSkillsDecision(input.storageDir, input.cwd, fingerprint, input.trustWorkspace) === 'trusted';
  const workspace = loadSkillCatalog({ workspaceRoots: input.roots, storageDir: input.storageDir, skillDirs, workspaceTrusted: trusted }).workspace;
  if (workspace && !workspace.trusted) {
    const names = workspace.skills.join(', ');
    if (input.ask && workspaceSkillsDecision(input.storageDir, input.cwd, workspace.fingerprint) === 'unknown') {
      process.stderr.write(`\n${input.style.bold(`? This workspace has skills the model may load: ${input.style.text(names)}`)}\n`);
      process.stderr.write(
        `${input.style.dim('Their instructions steer the model and their scripts are meant to be run (each still approved). Trust them only for a repository you know; the answer is remembered until a SKILL.md changes.')}\n`,
      );
      const answer = await input.ask.next('Offer them to the model? [y]es / [N]o: ');
      if (answer !== undefined) rememberWorkspaceSkills(input.storageDir, input.cwd, workspace.fingerprint, /^(y|yes)$/i.test(answer.trim()));
    }
    if (!trusted(workspace.fingerprint))
      process.stderr.write(
        `${input.style.yellow(`The skills of this workspace (${input.style.text(names)}) are not offered: they are not trusted (--trust-workspace trusts them for this run).`)}\n`,
      );
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
