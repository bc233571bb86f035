import { lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
/** One folder of the workspace. */
export interface WorkspaceRoot {
  /** The name its paths are shown with (`<name>/src/a.ts`); the primary root's is never shown. */
  readonly name: string;
  /** Absolute path with symlinks resolved. */
  readonly path: string;
}

/** A path named by the model, resolved against the workspace with symlinks followed. */
export interface ResolvedPath {
  /** Absolute path as the tools use it (real path of the longest existing prefix). */
  readonly absolute: string;
  /** Path to show: workspace-relative with forward slashes (`<folder>/…` in another root), or absolute when outside. */
  readonly display: string;
  readonly insideWorkspace: boolean;
  /** The workspace folder the path lies in (absent outside the workspace). */
  readonly root?: WorkspaceRoot;
}

/** A folder a host adds to the workspace (VS Code's workspace folders, the CLI's --add-dir). */
export interface WorkspaceFolderInput {
  readonly path: string;
  /** The folder's name as the editor shows it (default: the folder's base name). */
  readonly name?: string;
}

/** A workspace folder that cannot be opened (missing, or not a folder). */
export class WorkspaceRootError extends Error {}

/**
 * The folders of a workspace and the one boundary around them. The first folder is the primary
 * root: relative paths resolve there and commands run there. Another folder is addressed as
 * `<name>/path` when its name is unique among the folders and is not also an entry at the top of
 * the primary root; otherwise the primary root's entry keeps the name and the folder is shown and
 * addressed by absolute path. Absolute paths inside any folder are inside the workspace; where a
 * path really lies (symlinks followed) decides, never how it was named.
 */
export class WorkspaceRoots {
  private constructor(
    readonly primary: WorkspaceRoot,
    readonly others: readonly WorkspaceRoot[],
    /** Real paths of folders already resolved (see remembersFolders). */
    private readonly folders?: Map<string, string>,
  ) {}

  /**
   * The same workspace, resolving each folder's real path once: judging the thousands of files
   * one search walks stats each file instead of resolving every folder above it again. A link
   * made in a folder after it was remembered is seen by the next copy, so keep one per task step.
   */
  remembersFolders(): WorkspaceRoots {
    return new WorkspaceRoots(this.primary, this.others, new Map());
  }

  /** A workspace of one folder (as Smith has always had). */
  static single(cwd: string): WorkspaceRoots {
    const path = realPathOfExisting(resolve(cwd));
    return new WorkspaceRoots({ name: basename(path), path }, []);
  }

  /**
   * The primary folder plus others. Throws WorkspaceRootError naming a folder that does not exist
   * or is not a folder. A folder named twice (or the primary again) counts once.
   */
  static open(primary: string, others: readonly WorkspaceFolderInput[]): WorkspaceRoots {
    const first = WorkspaceRoots.single(primary);
    const seen = new Set([first.primary.path]);
    const roots: WorkspaceRoot[] = [];
    for (const folder of others) {
      const path = existingFolder(folder.path);
      if (seen.has(path)) continue;
      seen.add(path);
      roots.push({ name: folder.name?.trim() || basename(path), path });
    }
    return new WorkspaceRoots(first.primary, roots);
  }

  /** Every root, the primary first. */
  get all(): readonly WorkspaceRoot[] {
    return [this.primary, ...this.others];
  }

  get isMultiRoot(): boolean {
    return this.others.length > 0;
  }

  /**
   * Resolves a path the model or the user gave: `<name>/…` in an addressable folder, other
   * relative paths in the primary root, absolute paths as they are.
   */
  resolve(input: string): ResolvedPath {
    const requested = isAbsolute(input) ? resolve(input) : resolve(this.baseFor(input), this.restFor(input));
    const absolute = this.folders ? realPathInFolder(requested, this.folders) : realPathOfExisting(requested);
    const root = this.rootOf(absolute);
    return { absolute, display: root ? this.displayIn(root, absolute) : absolute, insideWorkspace: root !== undefined, ...(root ? { root } : {}) };
  }

  /** The root that holds a real absolute path (the primary first, then in order); undefined outside all. */
  rootOf(absolute: string): WorkspaceRoot | undefined {
    return this.all.find((root) => relativeInside(root.path, absolute) !== undefined);
  }

  /** How a path inside a root is shown: primary-relative, `<name>/…`, or absolute when the name is ambiguous. */
  displayIn(root: WorkspaceRoot, absolute: string): string {
    const rel = relativeInside(root.path, absolute) ?? '';
    if (root === this.primary) return rel || '.';
    const prefix = this.prefixOf(root);
    return rel === '' ? prefix : `${prefix}/${rel}`;
  }

  /** What a non-primary root's paths start with when shown: its name, or its absolute path when the name is ambiguous. */
  prefixOf(root: WorkspaceRoot): string {
    return this.isAddressable(root) ? root.name : root.path.split(sep).join('/');
  }

  /** True when `<name>/…` reaches this root: a unique, plain name that the primary root does not also have at its top. */
  isAddressable(root: WorkspaceRoot): boolean {
    if (root === this.primary) return false;
    const { name } = root;
    if (name === '' || name === '.' || name === '..' || /[/\\]/.test(name)) return false;
    if (this.others.filter((other) => other.name === name).length > 1) return false;
    // Checked on every call: an entry created in the primary root takes the name over at once.
    return lstatSync(join(this.primary.path, name), { throwIfNoEntry: false }) === undefined;
  }

  private addressedRoot(input: string): WorkspaceRoot | undefined {
    const first = input.split(/[/\\]/)[0] ?? '';
    return this.others.find((root) => root.name === first && this.isAddressable(root));
  }

  private baseFor(input: string): string {
    return this.addressedRoot(input)?.path ?? this.primary.path;
  }

  private restFor(input: string): string {
    return this.addressedRoot(input) ? input.split(/[/\\]/).slice(1).join('/') : input;
  }
}

/** The real path of the longest existing prefix, with the not-yet-existing rest appended. */
function realPathOfExisting(path: string): string {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(realpathSync.native(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/** realPathOfExisting of a normalised absolute path, its folder's real path taken from `folders` (and kept there). */
function realPathInFolder(path: string, folders: Map<string, string>): string {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  // A link or a missing file is resolved in full; only a real entry's name can be joined to its folder's real path.
  if (!stats || stats.isSymbolicLink()) return realPathOfExisting(path);
  const folder = dirname(path);
  if (folder === path) return realPathOfExisting(path);
  let real = folders.get(folder);
  if (real === undefined) {
    real = realPathOfExisting(folder);
    folders.set(folder, real);
  }
  return join(real, basename(path));
}

/** `absolute` relative to `root` with forward slashes ('' for the root itself); undefined when outside it. */
function relativeInside(root: string, absolute: string): string | undefined {
  const rel = relative(root, absolute);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

function existingFolder(path: string): string {
  const absolute = resolve(path);
  const stats = statSync(absolute, { throwIfNoEntry: false });
  if (!stats) throw new WorkspaceRootError(`Workspace folder does not exist: ${path}`);
  if (!stats.isDirectory()) throw new WorkspaceRootError(`Workspace folder is not a folder: ${path}`);
  return realpathSync.native(absolute);
}
