import { statSync } from 'node:fs';
import { WorkspaceRoots, type WorkspaceFolderInput } from '../core/workspace/workspace-roots.js';

/** The part of an editor's workspace folder Smith reads (VS Code's shape, matched structurally). */
export interface EditorWorkspaceFolder {
  readonly name: string;
  readonly uri: { readonly scheme: string; readonly fsPath: string };
}

/** A workspace's folders on disk: the primary one and the others, named as VS Code shows them. */
interface LocalWorkspaceFolders {
  /** The first folder on disk: relative paths resolve there and commands run there; undefined when none is open. */
  readonly primary: string | undefined;
  readonly others: readonly WorkspaceFolderInput[];
}

/**
 * The folders of a (multi-root) VS Code workspace that Smith can work in: those on disk, in the
 * order the workspace lists them. Remote and virtual folders are left out.
 */
export function localWorkspaceFolders(folders: readonly EditorWorkspaceFolder[] | undefined): LocalWorkspaceFolders {
  const local = (folders ?? []).filter((folder) => folder.uri.scheme === 'file');
  const [first, ...rest] = local;
  return { primary: first?.uri.fsPath, others: rest.map((folder) => ({ path: folder.uri.fsPath, name: folder.name })) };
}

/**
 * The folders as one workspace, for resolving the paths a task shows (an approval's file). A
 * folder missing on disk is left out here; starting a task names it as an error instead.
 */
export function editorWorkspaceRoots(folders: LocalWorkspaceFolders): WorkspaceRoots | undefined {
  if (!folders.primary) return undefined;
  return WorkspaceRoots.open(
    folders.primary,
    folders.others.filter((folder) => statSync(folder.path, { throwIfNoEntry: false })?.isDirectory()),
  );
}
