import { DEFAULT_MODE_SLUG } from '../core/modes/built-in-modes.js';
import type { WorkspaceTrustCheck } from '../core/mcp/workspace-trust.js';
import { loadModes, type HeldBackModes } from '../core/modes/mode-loader.js';
import { modeSummary, type Mode } from '../core/modes/mode.js';
import type { WorkspaceFolderInput } from '../core/workspace/workspace-roots.js';
import { findMode } from '../core/task/turn-setup.js';
import { readModeArgument } from '../shared/builtin-commands.js';
import type { PlanAct } from '../shared/plan-act.js';
import type { OpenTask } from './open-task.js';

/** Whether the workspace's mode files (`.roomodes`, `.smith/modes`) may be used, and what to do when they are held back (ask the user). */
export interface ModeTrust {
  readonly check: WorkspaceTrustCheck;
  readonly heldBack: (held: HeldBackModes) => void;
}

/** Where the modes come from and what they apply to; the TaskController provides it. */
interface PanelModesDeps {
  readonly storageDir: string;
  readonly cwd: () => string | undefined;
  /** The other folders of a multi-root workspace: their `.roomodes` are read too. */
  readonly additionalRoots?: () => readonly WorkspaceFolderInput[];
  /** Absent: the workspace's mode files are used. */
  readonly trust?: ModeTrust;
  /** Tells the user what was wrong with a mode file. */
  readonly notify: (message: string) => void;
  /** The task the chat shows: a switch applies to it too. */
  readonly shown: () => OpenTask | undefined;
  readonly emitState: () => void;
}

/** The panel's Plan/Act state and mode: new tasks start in them, and a switch applies to the shown task. */
export class PanelModes {
  private planAct: PlanAct = 'act';
  private slug = DEFAULT_MODE_SLUG;
  private modes: readonly Mode[] | undefined;
  private readonly told = new Set<string>();

  constructor(private readonly deps: PanelModesDeps) {}

  get mode(): PlanAct {
    return this.planAct;
  }

  get modeSlug(): string {
    return this.slug;
  }

  /** The snapshot's part: the modes to pick from (each with when to use it) and the current choices. */
  state(): { readonly modes: { slug: string; name: string; description: string }[]; readonly mode: PlanAct; readonly modeSlug: string } {
    return {
      modes: this.available().map((s) => ({ slug: s.slug, name: s.name, description: modeSummary(s) })),
      mode: this.planAct,
      modeSlug: this.slug,
    };
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
    if (this.modes) return this.modes;
    const cwd = this.deps.cwd();
    const others = this.deps.additionalRoots?.().map((root) => root.path) ?? [];
    const catalog = loadModes({
      storageDir: this.deps.storageDir,
      ...(cwd ? { workspaceRoot: cwd } : {}),
      ...(others.length > 0 ? { otherRoots: others } : {}),
      ...(this.deps.trust ? { trust: this.deps.trust.check } : {}),
    });
    // Each problem is told once per window (the list is read again whenever a view opens).
    for (const error of catalog.errors) {
      if (this.told.has(error)) continue;
      this.told.add(error);
      this.deps.notify(error);
    }
    if (catalog.heldBack) this.deps.trust?.heldBack(catalog.heldBack);
    this.modes = catalog.modes;
    return this.modes;
  }
}
