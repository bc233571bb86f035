// A command preview's time limit, on its own so the CLI's flag checks read it without loading the preview.

/** The time a preview's command gets when no other is set (`--timeout`, `--preview-timeout`, `smith.commandPreview.timeoutSeconds`). */
export const DEFAULT_PREVIEW_TIMEOUT_SECONDS = 30;
/** The longest time limit a preview may be given (a day). */
export const MAX_PREVIEW_TIMEOUT_SECONDS = 86_400;
