/** A sortable, unique task id: time first, then randomness. */
export function newTaskId(now = Date.now()): string {
  const random = Math.random().toString(36).slice(2, 8);
  return `${new Date(now).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}-${random}`;
}
