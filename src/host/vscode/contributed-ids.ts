// The ids package.json contributes, which the extension's small entry registers before anything
// else loads (src/extension.ts).

/** The id of the chat view in the Smith activity-bar container. */
export const CHAT_VIEW_ID = 'smith.chatView';

/** Every command the extension contributes (package.json lists the same ids). */
export const COMMAND_IDS = [
  'smith.newTask',
  'smith.cancelTask',
  'smith.focusPanel',
  'smith.openInEditor',
  'smith.addSelection',
  'smith.openSettings',
  'smith.openHistory',
  'smith.openMcp',
  'smith.refreshModelCatalog',
  'smith.setWebSearchKey',
  'smith.importSession',
  'smith.generateCommitMessage',
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];
