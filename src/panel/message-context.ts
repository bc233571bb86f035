import { imageForModel } from '../core/context/image-files.js';
import { prepareMessage, type MessageSession } from '../core/task/prepare-message.js';
import type { TaskOptions, MentionedContext } from '../core/task/task.js';

/** An image the user pasted, dropped or attached in the panel: its name and bytes (base64). */
export interface PanelImage {
  readonly name: string;
  readonly data: string;
}

/**
 * What a message from the panel carries besides its text: what the UserPromptSubmit hooks and its
 * @-mentions attach, and its images, checked (type, size, and a model that takes images); throws
 * saying what is wrong (a hook's refusal included).
 */
export async function messageContext(options: TaskOptions, text: string, images: readonly PanelImage[], session: MessageSession): Promise<MentionedContext> {
  // The hooks run first (SessionStart for a task's first message, then UserPromptSubmit, which may refuse it or add context), as in the CLI.
  const { expanded, hookErrors } = await prepareMessage(options, text, session);
  for (const error of hookErrors) options.host.notify('warning', error);
  if (images.length > 0 && options.modelInfo?.(options.provider)?.supportsImages !== true) {
    throw new Error(`${options.provider.modelId} does not take images as far as Smith knows. If it does, turn on smith.modelSupportsImages.`);
  }
  const checked = images.map((image) => imageForModel(Buffer.from(image.data, 'base64'), image.name));
  const problem = checked.find((c) => 'problem' in c);
  if (problem && 'problem' in problem) throw new Error(problem.problem);
  const ready = checked.flatMap((c) => ('image' in c ? [c] : []));
  return {
    ...(expanded?.context ? { context: expanded.context } : {}),
    attachments: [...(expanded?.attachments ?? []), ...ready.map((r) => r.attachment)],
    images: ready.map((r) => r.image),
    ...(expanded?.hookRuns ? { hookRuns: expanded.hookRuns } : {}),
    ...(expanded?.sessionStart ? { sessionStart: expanded.sessionStart } : {}),
  };
}
