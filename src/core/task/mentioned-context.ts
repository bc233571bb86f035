import type { ExpandedMessage } from '../context/mentions.js';
import type { Base64Image } from '../providers/types.js';
import type { HookRun } from '../../shared/hook-runs.js';
import type { SessionStartRuns } from './prepare-message.js';

/** What a message's @-mentions (see expandMentions) and images attached, logged with the message. */
export interface MentionedContext {
  readonly context?: string;
  readonly attachments?: ExpandedMessage['attachments'];
  readonly images?: readonly Base64Image[];
  /** The UserPromptSubmit hooks that ran on the message, logged as a `hooks_ran` event with it. */
  readonly hookRuns?: readonly HookRun[];
  /** The task's SessionStart hooks, run before the UserPromptSubmit ones of its first message (logged before them). */
  readonly sessionStart?: SessionStartRuns;
}

export function contextFields(mentioned: MentionedContext | undefined): MentionedContext {
  if (!mentioned) return {};
  return {
    ...(mentioned.context ? { context: mentioned.context } : {}),
    ...(mentioned.attachments && mentioned.attachments.length > 0 ? { attachments: mentioned.attachments } : {}),
    ...(mentioned.images && mentioned.images.length > 0 ? { images: mentioned.images } : {}),
  };
}
