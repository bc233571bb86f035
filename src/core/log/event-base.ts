/** What every event of a task log has: its place and time, given by the log when it is appended. */
export interface EventBase {
  /** Position in the log, starting at 0. */
  readonly seq: number;
  /** Milliseconds since the epoch. */
  readonly ts: number;
}
