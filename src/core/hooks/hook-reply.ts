/**
 * What a hook answered in JSON on stdout, in Claude Code's shape so existing hook scripts work:
 * `decision` ("block", or "approve" for a tool call), `reason`, `continue: false` with
 * `stopReason`, `systemMessage`, and `hookSpecificOutput` with `permissionDecision`
 * ("allow" | "deny" | "ask"), `permissionDecisionReason`, `updatedInput` and `additionalContext`.
 */
interface HookReply {
  readonly decision?: 'block' | 'allow' | 'ask';
  readonly reason?: string;
  readonly updatedInput?: Readonly<Record<string, unknown>>;
  readonly additionalContext?: string;
  /** A message for the user, not the model. */
  readonly systemMessage?: string;
}

/** The reply in a hook's stdout, or undefined when stdout is not a JSON object (plain text). */
export function parseHookReply(stdout: string): HookReply | undefined {
  const text = stdout.trim();
  if (!text.startsWith('{')) return undefined;
  let data: Record<string, unknown>;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!isObject(parsed)) return undefined;
    data = parsed;
  } catch {
    return undefined;
  }
  const specific = isObject(data.hookSpecificOutput) ? data.hookSpecificOutput : {};
  const decision = decisionOf(specific.permissionDecision) ?? decisionOf(data.decision) ?? (data.continue === false ? 'block' : undefined);
  const reason = stringOf(specific.permissionDecisionReason) ?? stringOf(data.reason) ?? (data.continue === false ? stringOf(data.stopReason) : undefined);
  const additionalContext = stringOf(specific.additionalContext);
  const systemMessage = stringOf(data.systemMessage);
  return {
    ...(decision ? { decision } : {}),
    ...(reason ? { reason } : {}),
    ...(isObject(specific.updatedInput) ? { updatedInput: specific.updatedInput } : {}),
    ...(additionalContext ? { additionalContext } : {}),
    ...(systemMessage ? { systemMessage } : {}),
  };
}

function decisionOf(value: unknown): HookReply['decision'] {
  if (value === 'block' || value === 'deny') return 'block';
  if (value === 'approve' || value === 'allow') return 'allow';
  if (value === 'ask') return 'ask';
  return undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
