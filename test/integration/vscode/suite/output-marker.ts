// The extension host's console reaches the runner mixed with the workbench's own log lines
// (connection setup, offline gallery errors). Mocha's lines carry this marker so the runner can
// print them and keep the rest for failures and verbose runs.

/** Prefix of every line mocha's reporter writes inside the workbench. */
export const MOCHA_LINE_MARKER = '[smith-mocha] ';
