// The options of a run beyond the task: images with it, permission settings, --dry-run, --input stream-json.
import { writeFileSync } from 'node:fs';
import { readImageFile } from '../core/context/image-files.js';
import type { Attachment } from '../core/log/attachment.js';
import type { ProcessPort } from '../core/ports.js';
import type { ApiProvider, Base64Image } from '../core/providers/types.js';
import type { TaskOptions } from '../core/task/task.js';
import type { OverlayFileSystem } from '../core/workspace/overlay-file-system.js';
import type { CliOptions } from './cli-options.js';
import { UsageError } from './usage-error.js';
import { StreamJsonInput } from './stream-json-input.js';
import type { Style } from './style.js';
import { WorkspaceTrust } from '../core/mcp/workspace-trust.js';
import type { PermissionRule } from '../core/permissions/permission-rules.js';
import type { HookSettings } from '../core/hooks/hooks.js';
import { loadPermissionSettings } from '../core/permissions/settings-files.js';
import { askSettingsTrust, type AskSettingsTrust } from '../core/permissions/settings-trust.js';
import type { LineSource } from './line-source.js';

/** The --image files, checked: each readable, a supported type and size, and a model that takes images. */
export async function imagesFromFlags(
  paths: readonly string[],
  taskOptions: TaskOptions,
  provider: ApiProvider,
): Promise<{ images: Base64Image[]; attachments: Attachment[] }> {
  const images: Base64Image[] = [];
  const attachments: Attachment[] = [];
  if (paths.length === 0) return { images, attachments };
  if (taskOptions.modelInfo?.(provider)?.supportsImages !== true) {
    throw new UsageError(`${provider.modelId} does not take images as far as Smith knows; pass --vision if it does`);
  }
  for (const path of paths) {
    const read = await readImageFile(path);
    if ('problem' in read) throw new UsageError(`--image: ${read.problem}`);
    images.push(read.image);
    attachments.push(read.attachment);
  }
  return { images, attachments };
}

/**
 * The rules and hooks of the settings files, saying on stderr what is wrong with them and what
 * waits for trust; with `ask` (a terminal), asks once about a workspace file's allow rules and hooks.
 */
export async function permissionSettings(
  storageDir: string,
  cwd: string,
  trustAll: boolean,
  style: Style,
  ask?: AskSettingsTrust,
): Promise<{ rules: PermissionRule[]; hooks: HookSettings }> {
  const read = () => loadPermissionSettings({ storageDir, workspaceRoot: cwd, trust: new WorkspaceTrust({ storageDir, trustAll }).check });
  let settings = read();
  for (const problem of settings.problems) process.stderr.write(`${style.yellow(style.text(`Warning: ${problem}`))}\n`);
  if (ask && (await askSettingsTrust(settings.heldBack, storageDir, ask)) !== undefined) settings = read();
  if (settings.heldBack) {
    const count = settings.heldBack.rules.length;
    const { hooks } = settings.heldBack;
    const what = [count > 0 ? `${count} allow rule${count === 1 ? '' : 's'}` : '', hooks > 0 ? `${hooks} hook${hooks === 1 ? '' : 's'}` : '']
      .filter(Boolean)
      .join(' and ');
    process.stderr.write(
      `${style.yellow(`${what} in ${style.text(settings.heldBack.file)} not used: this workspace is not trusted (--trust-workspace trusts it for this run).`)}\n`,
    );
  }
  return { rules: settings.rules, hooks: settings.hooks };
}

/** The question on a terminal: what the workspace's settings file would allow and run. */
export function terminalSettingsTrustPrompt(lines: LineSource, err: NodeJS.WritableStream, style: Style): AskSettingsTrust {
  return async (held, granted) => {
    err.write(`\n${style.bold(`? This workspace's ${style.text(held.file)} wants to allow and run:`)}\n`);
    for (const line of granted) err.write(`  ${style.text(line)}\n`);
    err.write(
      `${style.dim('Allowed calls run without asking and hooks run as you. Trust them only for a repository you know; the answer is remembered until the file changes.')}\n`,
    );
    const answer = await lines.next('Trust them? [y]es / [N]o: ');
    return answer === undefined ? undefined : /^(y|yes)$/i.test(answer.trim());
  };
}

/** --dry-run has no way to run a command without letting it change files. */
export const NO_COMMANDS: ProcessPort = {
  start: () => {
    throw new Error('Commands are not run in a dry run (--dry-run): only file edits are collected, as a patch.');
  },
};

/** The dry run's changes: a unified diff on stdout, or in the --patch-file. */
export async function writePatch(overlay: OverlayFileSystem, cwd: string, file: string | undefined): Promise<void> {
  const patch = await overlay.patch(cwd);
  if (file) writeFileSync(file, patch);
  else process.stdout.write(patch);
  process.stderr.write(patch === '' ? 'Dry run: no file would change.\n' : `Dry run: no file was written${file ? `; the patch is in ${file}` : ''}.\n`);
}

/** --input stream-json: the task comes from the command line, stdin carries JSON lines. */
export function openJsonInput(options: CliOptions): StreamJsonInput {
  if (!options.task && !options.resume) throw new UsageError('--input stream-json needs the task as an argument (or --resume): stdin carries the JSON lines');
  return new StreamJsonInput(process.stdin, (message) => process.stderr.write(`smith: ${message}\n`));
}
