/** The chat's (and the CLI's) line for a loop the task caught. */
export function loopNotice(tool: string, count: number, action: 'told' | 'allowed' | 'stopped', sameFailure: boolean): string {
  const what = sameFailure ? `${tool} failed the same way ${count} times in a row` : `The model made the same ${tool} call ${count} times in a row`;
  if (action === 'told') return `${what}; told it to change course.`;
  return action === 'allowed' ? `${what}; you let it go on.` : `${what} after it was told; the task was stopped.`;
}
