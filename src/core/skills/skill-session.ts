import { type AgentSkill, loadSkillCatalog, type SkillCatalog } from './skill-catalog.js';
import type { SkillLocationInput } from './skill-locations.js';

/** Where a session's skills come from, with the choices the user may change while it runs. */
export interface SkillSessionInput extends SkillLocationInput {
  /** Names the user turned off, read on each refresh (the panel's toggles apply at the next request). */
  readonly disabled?: () => ReadonlySet<string>;
  /** Whether the workspace's skills are trusted, for these exact files (see WorkspaceSkills); read on each refresh. */
  readonly workspaceTrusted: (fingerprint: string) => boolean;
}

/**
 * The skills of a task's workspace: read again before each model request (as rules are), so a
 * skill added, edited or turned off applies at once; use_skill loads from the list the request
 * offered.
 */
export class SkillSession {
  private last: SkillCatalog | undefined;

  constructor(private readonly input: SkillSessionInput) {}

  /** Reads the skills folders again. */
  refresh(): SkillCatalog {
    const { disabled, workspaceTrusted, ...where } = this.input;
    const off = disabled?.();
    this.last = loadSkillCatalog({ ...where, workspaceTrusted, ...(off ? { disabled: off } : {}) });
    return this.last;
  }

  /** The skills the latest request offered (read now if none was made yet). */
  offered(): readonly AgentSkill[] {
    return (this.last ?? this.refresh()).offered;
  }

  get workspaceRoots(): readonly string[] {
    return this.input.workspaceRoots;
  }
}
