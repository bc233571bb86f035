import type { WorkspaceRoots } from '../workspace/workspace-roots.js';

/**
 * The system-prompt section naming the folders of a multi-root workspace and how to address
 * each; '' for a workspace of one folder. Read each turn, since a new entry in the primary folder
 * can take a folder's name over.
 */
export function workspaceFoldersSection(workspace: WorkspaceRoots): string {
  if (!workspace.isMultiRoot) return '';
  const lines = workspace.others.map((root) =>
    workspace.isAddressable(root)
      ? `- ${root.path}: folder "${root.name}", addressed as ${root.name}/path`
      : `- ${root.path}: folder "${root.name}", addressed by its absolute path (${root.path}/path), since "${root.name}" ${nameClash(workspace, root.name)}`,
  );
  return [
    '# Workspace folders',
    '',
    `This is a multi-root workspace of ${workspace.all.length} folders, all inside the workspace:`,
    `- ${workspace.primary.path}: the primary folder; plain relative paths resolve here and commands run here`,
    ...lines,
    '',
    'Paths in tool results are shown the same way. list_files and search_files on "." cover every folder.',
  ].join('\n');
}

function nameClash(workspace: WorkspaceRoots, name: string): string {
  if (!/^[^/\\]+$/.test(name) || name === '.' || name === '..') return 'is not a plain folder name';
  return workspace.others.filter((root) => root.name === name).length > 1 ? 'names more than one folder' : 'is also an entry of the primary folder';
}
