import type { ExpandedMessage } from '../context/mentions.js';
import type { Base64Image } from '../providers/types.js';

/** What a message's @-mentions (see expandMentions) and images attached, logged with the message. */
export interface MentionedContext {
  readonly context?: string;
  readonly attachments?: ExpandedMessage['attachments'];
  readonly images?: readonly Base64Image[];
}

export function contextFields(mentioned: MentionedContext | undefined): MentionedContext {
  if (!mentioned) return {};
  return {
    ...(mentioned.context ? { context: mentioned.context } : {}),
    ...(mentioned.attachments && mentioned.attachments.length > 0 ? { attachments: mentioned.attachments } : {}),
    ...(mentioned.images && mentioned.images.length > 0 ? { images: mentioned.images } : {}),
  };
}
