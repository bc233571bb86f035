import { WorkspaceTrust } from '../mcp/workspace-trust.js';
import type { HeldBackRules } from './settings-files.js';

/** Asks the user whether to trust a workspace file's allow rules and hooks: true or false is remembered, undefined (dismissed) is not. */
export type AskSettingsTrust = (held: HeldBackRules, lines: readonly string[]) => PromiseLike<boolean | undefined>;

/** What a workspace file would grant, one line each: its allow rules, then its hook commands. */
function heldBackLines(held: HeldBackRules): string[] {
  return [...held.rules.map((rule) => `allow ${rule}`), ...held.hookCommands.map((hook) => `hook ${hook}`)];
}

const asking = new Set<string>();

/**
 * Asks about a workspace file's allow rules and hooks the user has not answered for yet (a no is
 * not asked again until the file changes), at most one question per file version at a time, and
 * remembers a yes or no. Returns the answer; undefined when not asked or dismissed.
 */
export async function askSettingsTrust(held: HeldBackRules | undefined, storageDir: string, ask: AskSettingsTrust): Promise<boolean | undefined> {
  if (held?.decision !== 'unknown' || asking.has(held.fingerprint)) return undefined;
  asking.add(held.fingerprint);
  try {
    const answer = await ask(held, heldBackLines(held));
    if (answer !== undefined) new WorkspaceTrust({ storageDir }).remember(held.trustKey, held.fingerprint, answer);
    return answer;
  } finally {
    asking.delete(held.fingerprint);
  }
}
