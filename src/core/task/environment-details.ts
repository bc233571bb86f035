/** Facts about the workspace sent with every request, so the model sees the present state. */
interface EnvironmentFacts {
  readonly now: number;
  readonly cwd: string;
  /** A capped listing of the workspace, sent with the first request only. */
  readonly fileListing?: string;
  readonly mode?: string;
  readonly extra?: readonly string[];
}

/** Renders the environment details block (without the surrounding tags). */
export function renderEnvironmentDetails(facts: EnvironmentFacts): string {
  const when = new Date(facts.now);
  const offset = -when.getTimezoneOffset() / 60;
  const parts = [`# Current time\n${when.toISOString()} (UTC${offset >= 0 ? '+' : ''}${offset} local offset)`];
  if (facts.mode) parts.push(`# Current mode\n${facts.mode}`);
  for (const section of facts.extra ?? []) parts.push(section);
  if (facts.fileListing !== undefined) parts.push(`# Workspace files (${facts.cwd})\n${facts.fileListing || '(no files)'}`);
  return parts.join('\n\n');
}
