import { summarizePreview } from '../../shared/command-preview-facts.js';
import type { TaskLog } from '../log/task-log.js';
import { previewCommand } from '../preview/command-preview.js';
import { applyPreview } from '../preview/preview-apply.js';
import type { SecretRedactor } from '../secrets/secret-redactor.js';
import type { CommandPreviewHandle } from '../tool-kit/tool-spec.js';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';

/** What a task's command previews are made with. */
export interface CommandPreviewSettings {
  /** The workspace folder the command gets a copy of, and where it runs. */
  readonly root: string;
  readonly ignore: IgnorePolicy;
  readonly redactor?: SecretRedactor;
  /** The preview's time limit (default DEFAULT_PREVIEW_TIMEOUT_SECONDS). */
  readonly timeoutSeconds?: number;
  readonly signal: AbortSignal;
}

/**
 * The preview a tool call offers with its approval: the command on a copy of the workspace
 * (command-preview.ts), its summary logged as `command_previewed`, and Apply writing the
 * previewed changes as a checkpoint restore writes, inside the call, so the step's checkpoint
 * keeps them and a rewind takes them back.
 */
export function commandPreviewer(settings: CommandPreviewSettings, log: TaskLog, callId: string): (command: string) => Promise<CommandPreviewHandle> {
  return async (command) => {
    const run = await previewCommand({
      command,
      cwd: settings.root,
      root: settings.root,
      ignore: settings.ignore,
      signal: settings.signal,
      ...(settings.timeoutSeconds !== undefined ? { timeoutSeconds: settings.timeoutSeconds } : {}),
      ...(settings.redactor ? { redact: (text: string) => settings.redactor!.redact(text) } : {}),
    });
    log.append({ type: 'command_previewed', callId, summary: summarizePreview(run.result) });
    return {
      result: run.result,
      sides: (path) => run.sides(path),
      apply: () => {
        if (!run.copy) throw new Error('The command was not previewed, so there is nothing to apply.');
        return applyPreview(run.result, run.copy);
      },
      dispose: () => run.dispose(),
    };
  };
}
