import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { realpathSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { WorkspaceTrustCheck } from '../mcp/workspace-trust.js';
import { ContainedFiles, type LoaderCaps } from '../workspace/contained-files.js';
import { BUILT_IN_MODES } from './built-in-modes.js';
import type { Mode } from './mode.js';
import { readModeFile } from './mode-file.js';
import { rooGlobalModesFile, ROOMODES_FILE, GLOBAL_MODES_FILE } from './mode-locations.js';

/** Every mode available, a clear message for each file that could not be used, and notes on files in a deprecated place. */
export interface ModeCatalog {
  readonly modes: readonly Mode[];
  readonly errors: readonly string[];
  readonly notes: readonly string[];
  /** The workspace's mode files, not used because the user has not trusted them (yet). */
  readonly heldBack?: HeldBackModes;
}

/** A workspace's mode files held back until the user trusts them, exactly as they are now. */
export interface HeldBackModes {
  readonly trustKey: string;
  readonly fingerprint: string;
  readonly decision: 'denied' | 'unknown';
  readonly files: readonly string[];
}

/** Where modes are read from (see modeSources for the order). */
export interface ModeFolders {
  /** Smith's storage folder: its `custom_modes.yaml` and `modes/` (and the older `skills/`) hold the user's own modes. */
  readonly storageDir?: string;
  /** The primary workspace folder: its `.roomodes` and `.smith/modes`. */
  readonly workspaceRoot?: string;
  /** The other folders of a multi-root workspace: their `.roomodes`. */
  readonly otherRoots?: readonly string[];
  /** Whether the user trusts the workspace's mode files; absent: they are trusted (tests, a replay). */
  readonly trust?: WorkspaceTrustCheck;
  /** Where Roo Code's global `custom_modes.yaml` is looked for (default: the user's home folder). */
  readonly homeDir?: string;
}

/** What the mode loader reads at most: 256 KiB of one file (a larger one is skipped), 1 MiB in all, 1,000 entries per folder. */
const MODE_CAPS: LoaderCaps = { fileBytes: 256 * 1024, totalBytes: 1024 * 1024, entries: 1000 };

/** Where mode files lived before modes had their name: `skills/` (now Agent Skills' folder, whose sub-folders are never modes). */
const OLDER_FOLDER = 'skills';

/** A file or folder of mode files; `moveTo` marks the older place (`skills/`), which still loads with a note. */
interface ModeSource {
  readonly path: string;
  readonly kind: 'file' | 'folder';
  readonly label: string;
  readonly moveTo?: string;
}

/**
 * The user's own sources, weakest first: Roo Code's global `custom_modes.yaml`, Smith's
 * `<storage>/custom_modes.yaml`, then `<storage>/skills/` and `<storage>/modes/`.
 */
function userSources(folders: ModeFolders): ModeSource[] {
  // A home folder given (tests) stands alone: the environment's config folders are not consulted.
  const roo = folders.homeDir ? rooGlobalModesFile(folders.homeDir, process.platform, {}) : rooGlobalModesFile(homedir());
  const sources: ModeSource[] = [{ path: roo, kind: 'file', label: roo }];
  if (folders.storageDir) {
    const storage = folders.storageDir;
    const global = join(storage, GLOBAL_MODES_FILE);
    const legacy = join(storage, OLDER_FOLDER);
    sources.push({ path: global, kind: 'file', label: global });
    sources.push({ path: legacy, kind: 'folder', label: legacy, moveTo: join(storage, 'modes') });
    sources.push({ path: join(storage, 'modes'), kind: 'folder', label: join(storage, 'modes') });
  }
  return sources;
}

/** The workspace's sources, weakest first: each other folder's `.roomodes`, the primary's `.roomodes`, then its `.smith/skills/` and `.smith/modes/`. */
function workspaceSources(folders: ModeFolders): ModeSource[] {
  const root = folders.workspaceRoot;
  const others = (folders.otherRoots ?? []).map((other) => ({ path: join(other, ROOMODES_FILE), kind: 'file' as const, label: join(other, ROOMODES_FILE) }));
  if (!root) return others;
  return [
    ...others,
    { path: join(root, ROOMODES_FILE), kind: 'file', label: ROOMODES_FILE },
    { path: join(root, '.smith', OLDER_FOLDER), kind: 'folder', label: `.smith/${OLDER_FOLDER}`, moveTo: '.smith/modes' },
    { path: join(root, '.smith', 'modes'), kind: 'folder', label: '.smith/modes' },
  ];
}

/** A mode file read: where it came from, its label, its text. */
interface ReadFile {
  readonly path: string;
  readonly label: string;
  readonly text: string;
}

/**
 * Loads modes: built-in, then the user's own (Roo Code's global file, `<storage>/custom_modes.yaml`,
 * `<storage>/modes`), then the workspace's (`.roomodes`, `.smith/modes`); a later mode with the
 * same slug replaces an earlier one, so a project's mode wins over a global one, and both over a
 * built-in one (as in Roo Code). A broken file or entry is reported and skipped, the rest loads.
 * A workspace file is read only where its real path lies inside the workspace, and used only once
 * the user trusts the workspace's mode files as they are (a changed or added file asks again).
 */
export function loadModes(given: ModeFolders): ModeCatalog {
  // Real paths, so the trust fingerprint is the same however a host spelled the folders.
  const folders: ModeFolders = {
    ...given,
    ...(given.workspaceRoot ? { workspaceRoot: realPath(given.workspaceRoot) } : {}),
    ...(given.otherRoots ? { otherRoots: given.otherRoots.map(realPath) } : {}),
  };
  const bySlug = new Map<string, Mode>(BUILT_IN_MODES.map((m) => [m.slug, m]));
  const errors: string[] = [];
  const notes: string[] = [];
  const user = userSources(folders);
  const files = new ContainedFiles({
    within: [...(folders.workspaceRoot ? [folders.workspaceRoot] : []), ...(folders.otherRoots ?? [])],
    trusted: [...(folders.storageDir ? [folders.storageDir] : []), user[0]!.path],
    caps: MODE_CAPS,
  });
  const read = (source: ModeSource): ReadFile[] => {
    if (source.kind === 'file') {
      if (!files.present(source.path)) return [];
      const text = files.readText(source.path, 'skip');
      return text === undefined ? [] : [{ path: source.path, label: source.label, text }];
    }
    const found = files.listFiles(source.path, { recursive: false, match: (name) => /\.(ya?ml|json)$/i.test(name) });
    if (source.moveTo && found.length > 0)
      notes.push(`Mode files in ${source.label} are deprecated; move them to ${source.moveTo}: ${found.map((f) => basename(f.path)).join(', ')}`);
    return found.flatMap(({ path }) => {
      const text = files.readText(path, 'skip');
      return text === undefined ? [] : [{ path, label: path, text }];
    });
  };
  const use = (file: ReadFile) => {
    const content = readModeFile(file.label, file.path, file.text);
    errors.push(...content.errors);
    for (const mode of content.modes) bySlug.set(mode.slug, mode);
  };
  for (const source of user) for (const file of read(source)) use(file);
  const workspaceFiles = workspaceSources(folders).flatMap(read);
  let heldBack: HeldBackModes | undefined;
  if (workspaceFiles.length > 0) {
    const fingerprint = createHash('sha256')
      .update(JSON.stringify(workspaceFiles.map((file) => [file.path, file.text])))
      .digest('hex');
    const trustKey = `${folders.workspaceRoot ?? folders.otherRoots?.[0] ?? ''}#modes`;
    const decision = folders.trust ? folders.trust(trustKey, fingerprint) : 'trusted';
    if (decision === 'trusted') for (const file of workspaceFiles) use(file);
    else heldBack = { trustKey, fingerprint, decision, files: workspaceFiles.map((file) => file.path) };
  }
  errors.push(...files.skipped.map((entry) => `Mode file ${entry.path} could not be read: ${entry.reason}`));
  return { modes: [...bySlug.values()], errors, notes, ...(heldBack ? { heldBack } : {}) };
}

/** The one line a host shows when the workspace's mode files are not used. */
export function heldBackModesNote(held: HeldBackModes, howToTrust: string): string {
  const count = held.files.length;
  return `${count} mode file${count === 1 ? '' : 's'} of this workspace (${held.files.map((file) => basename(file)).join(', ')}) not used: it is not trusted (${howToTrust}).`;
}

function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}
