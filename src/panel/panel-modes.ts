import { DEFAULT_MODE_SLUG } from '../core/modes/built-in-modes.js';
import { loadModes } from '../core/modes/mode-loader.js';
import type { Mode } from '../core/modes/mode.js';
import { findMode } from '../core/task/turn-setup.js';
import { readModeArgument } from '../shared/builtin-commands.js';
import type { PlanAct } from '../shared/plan-act.js';
import type { OpenTask } from './open-task.js';

/** Where the modes come from and what they apply to; the TaskController provides it. */
interface PanelModesDeps {
  readonly storageDir: string;
  readonly cwd: () => string | undefined;
  /** The task the chat shows: a switch applies to it too. */
  readonly shown: () => OpenTask | undefined;
  readonly emitState: () => void;
}

/** The panel's Plan/Act state and mode: new tasks start in them, and a switch applies to the shown task. */
export class PanelModes {
  private planAct: PlanAct = 'act';
  private slug = DEFAULT_MODE_SLUG;
  private modes: readonly Mode[] | undefined;

  constructor(private readonly deps: PanelModesDeps) {}

  get mode(): PlanAct {
    return this.planAct;
  }

  get modeSlug(): string {
    return this.slug;
  }

  /** The snapshot's part: the modes to pick from and the current choices. */
  state(): { readonly modes: { slug: string; name: string }[]; readonly mode: PlanAct; readonly modeSlug: string } {
    return { modes: this.available().map((s) => ({ slug: s.slug, name: s.name })), mode: this.planAct, modeSlug: this.slug };
  }

  /** Sets Plan or Act for new tasks and for the shown one. */
  setMode(mode: PlanAct): void {
    this.planAct = mode;
    const open = this.deps.shown();
    if (open?.task) open.task.switchMode(mode);
    else if (open) open.pendingMode = mode;
    this.deps.emitState();
  }

  /** Sets the mode for new tasks and for the shown one; throws, listing the modes, when unknown. */
  setModeSlug(slug: string): void {
    findMode(this.available(), slug);
    this.slug = slug;
    const open = this.deps.shown();
    if (open?.task) open.task.switchModeSlug(slug);
    else if (open) open.pendingModeSlug = slug;
    this.deps.emitState();
  }

  /** `/mode ARG` typed in the Task box. */
  command(args: string): void {
    const slugs = this.available().map((m) => m.slug);
    const wanted = readModeArgument(args, slugs);
    if (wanted.kind === 'planAct') this.setMode(wanted.planAct);
    else if (wanted.kind === 'mode') this.setModeSlug(wanted.slug);
    else
      throw new Error(
        `${wanted.kind === 'unknown' ? `Unknown mode "${wanted.slug}". ` : ''}Usage: /mode <slug> (${slugs.join(', ')}); /plan or /act for Plan/Act`,
      );
  }

  /** The modes are files: they are read again when next needed. */
  forget(): void {
    this.modes = undefined;
  }

  private available(): readonly Mode[] {
    const cwd = this.deps.cwd();
    this.modes ??= loadModes({ storageDir: this.deps.storageDir, ...(cwd ? { workspaceRoot: cwd } : {}) }).modes;
    return this.modes;
  }
}
