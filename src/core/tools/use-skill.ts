import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
import { skillToolRules } from '../permissions/skill-tool-limits.js';
import type { AgentSkill } from '../skills/skill-catalog.js';
import type { SkillSession } from '../skills/skill-session.js';
import { ContainedFiles } from '../workspace/contained-files.js';
import { builtInSpec, mistake, type ToolHandler } from '../tool-kit/tool-spec.js';

/** Characters of a SKILL.md's instructions sent at most; the rest stays readable with read_file. */
export const MAX_SKILL_BODY_CHARS = 40_000;
/** Files of a skill's folder listed at most. */
const MAX_LISTED_FILES = 200;
/** Folders of a skill never listed (dependencies and history, not the skill's own files). */
const UNLISTED_FOLDERS = ['node_modules', '.git', '__pycache__', '.venv'];

/** What use_skill needs from the session: the skills offered this turn, and the workspace folders its links must stay in. */
type SkillSource = Pick<SkillSession, 'offered' | 'workspaceRoots'>;

/**
 * use_skill (Cline's name for it; Claude Code calls it Skill): loads an offered skill's
 * instructions and lists its files. The prompt lists only each skill's name and description; this
 * is the second step of progressive disclosure, and the files are the third (read_file,
 * execute_command, through the usual approvals). Logs `skill_loaded`, which makes the skill active.
 */
export function createUseSkillTool(source: SkillSource): ToolHandler {
  return {
    spec: builtInSpec({
      name: 'use_skill',
      description:
        "Load a skill from the Skills section: returns its instructions and the files in its folder. Load a skill as soon as the task matches its description, then follow its instructions. While a skill is active, only the tools its allowed-tools name can be used (besides asking, finishing and reading the skill's files).",
      params: [{ name: 'skill_name', required: true, description: 'The name of the skill, exactly as the Skills section lists it.' }],
      example: '<use_skill>\n<skill_name>pdf-forms</skill_name>\n</use_skill>',
    }),
    async execute(params, context) {
      const name = params.skill_name!.trim();
      const offered = source.offered();
      const skill = offered.find((s) => s.name === name);
      if (!skill) {
        const names = offered.map((s) => s.name);
        return mistake(`No skill named "${name}" is available.${names.length > 0 ? ` Available skills: ${names.join(', ')}.` : ' No skills are available.'}`);
      }
      const limits = skill.allowedTools ? skillToolRules(skill.allowedTools) : undefined;
      const body = skill.body.trim();
      context.skillLoaded?.({
        name: skill.name,
        location: skill.location,
        dir: skill.dir,
        sha256: createHash('sha256').update(skill.body).digest('hex'),
        ...(skill.allowedTools ? { allowedTools: skill.allowedTools, rules: limits?.rules ?? [] } : {}),
      });
      const shown =
        body.length > MAX_SKILL_BODY_CHARS
          ? `${body.slice(0, MAX_SKILL_BODY_CHARS)}\n\n[Cut at ${MAX_SKILL_BODY_CHARS} characters; read the rest in ${skill.file}.]`
          : body;
      const files = skillFiles(skill, source.workspaceRoots);
      const listing = files.paths.map((path) => `- ${path}`).join('\n') + (files.more > 0 ? `\n(${files.more} more files not listed)` : '');
      const rules = limits
        ? `\n\nWhile this skill is active (until you load another skill, the user writes again or the task completes) you may use only: ${skill.allowedTools!.length > 0 ? skill.allowedTools!.join(', ') : 'no tool'}, besides asking the user, finishing, loading a skill and reading this skill's files.${limits.ignored.length > 0 ? ` Smith cannot apply ${limits.ignored.join(', ')}; they allow nothing.` : ''}`
        : '';
      const output = `<skill name="${skill.name}" folder="${skill.dir}">\n${shown || '(This SKILL.md has no instructions after its front matter.)'}\n</skill>\n\nFiles in the skill's folder, relative to ${skill.dir} (read them with read_file and run its scripts with execute_command, using full paths):\n${listing}${rules}`;
      return { kind: 'result', output };
    },
  };
}

/** The skill's files, relative to its folder: a workspace skill's only where they stay inside the workspace. */
function skillFiles(skill: AgentSkill, workspaceRoots: readonly string[]): { paths: string[]; more: number } {
  const files = new ContainedFiles({
    within: workspaceRoots,
    trusted: skill.scope === 'workspace' ? [] : [skill.dir],
    caps: { fileBytes: 0, totalBytes: 0, entries: 2000 },
  });
  const listed = files.listFiles(skill.dir, { recursive: true, match: () => true, skipFolders: UNLISTED_FOLDERS }).map((file) => file.rel);
  const paths = listed.slice(0, MAX_LISTED_FILES).map((rel) => rel.split(sep).join('/'));
  return { paths: paths.length > 0 ? paths : [relative(skill.dir, skill.file)], more: Math.max(0, listed.length - MAX_LISTED_FILES) };
}
