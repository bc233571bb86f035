// The mode is named here, below every folder that reads it, because the log records it
// (task_started, mode_switched).

/** Plan explores and proposes; Act carries out. */
export type Mode = 'plan' | 'act';
