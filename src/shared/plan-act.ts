// The mode is named here, below everything that reads it: the log records it (task_started,
// mode_switched), the tool catalogue says which tools each offers, the panel switches it.

/** Plan explores and proposes; Act carries out. */
export type PlanAct = 'plan' | 'act';
