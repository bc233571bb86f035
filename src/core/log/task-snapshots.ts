import type { TaskEvent } from './events.js';

/** Every snapshot a task's log names: its checkpoints and the states its restores replaced. */
export function snapshotsOfTask(events: readonly TaskEvent[]): string[] {
  const roots: string[] = [];
  for (const event of events) {
    if (event.type === 'checkpoint_created') roots.push(event.root);
    else if (event.type === 'conversation_rewound' && event.beforeRoot) roots.push(event.beforeRoot);
  }
  return roots;
}

/** The snapshots a task's log names of another folder of its multi-root workspace (kept in that folder's store). */
export function folderSnapshotsOfTask(events: readonly TaskEvent[], folderPath: string): string[] {
  const roots: string[] = [];
  for (const event of events) {
    const folders = event.type === 'checkpoint_created' ? event.folders : event.type === 'conversation_rewound' ? event.beforeFolders : undefined;
    for (const folder of folders ?? []) if (folder.path === folderPath) roots.push(folder.root);
  }
  return roots;
}

/** The other folders a task's checkpoints cover, by path, with the name their files are shown under. */
export function checkpointFoldersOfTask(events: readonly TaskEvent[]): Map<string, string> {
  const folders = new Map<string, string>();
  for (const event of events) if (event.type === 'checkpoint_created') for (const folder of event.folders ?? []) folders.set(folder.path, folder.name);
  return folders;
}

/**
 * The file contents an edit of this task may still be merged from: the last stamp of each file in
 * its log (what the model last read or Smith last wrote there), by content hash.
 */
export function fileVersionsOfTask(events: readonly TaskEvent[]): string[] {
  const last = new Map<string, string>();
  for (const event of events) if (event.type === 'tool_result' && event.details?.file) last.set(event.details.file.path, event.details.file.sha256);
  return [...new Set(last.values())];
}
