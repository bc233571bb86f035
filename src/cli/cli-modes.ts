// The CLI's modes: the workspace's mode files (`.roomodes`, `.smith/modes`) are used once
// trusted: --trust-workspace, or a yes on a terminal; the user's own files always.
import { WorkspaceTrust } from '../core/mcp/workspace-trust.js';
import { heldBackModesNote, loadModes, type ModeCatalog } from '../core/modes/mode-loader.js';
import type { TaskEnvironmentInput } from '../core/session/task-environment.js';
import type { LineSource } from './line-source.js';
import type { Style } from './style.js';

/** How the workspace's mode files are judged; asks once on a terminal about new or changed ones. */
export async function cliModeSettings(
  place: { readonly storageDir: string; readonly cwd: string; readonly otherRoots: readonly string[] },
  trustAll: boolean,
  ask?: { readonly lines: LineSource; readonly err: NodeJS.WritableStream; readonly style: Style },
): Promise<NonNullable<TaskEnvironmentInput['modes']>> {
  const trust = new WorkspaceTrust({ storageDir: place.storageDir, trustAll });
  if (ask) {
    const held = loadModes({ workspaceRoot: place.cwd, otherRoots: place.otherRoots, trust: trust.check }).heldBack;
    if (held?.decision === 'unknown') {
      const { lines, err, style } = ask;
      err.write(`\n${style.bold("? This workspace's mode files define modes (roles, instructions and the tools each may use):")}\n`);
      for (const file of held.files) err.write(`  ${style.text(file)}\n`);
      err.write(
        `${style.dim('Their instructions steer the model. Trust them only for a repository you know; the answer is remembered until a file changes.')}\n`,
      );
      const answer = await lines.next('Use them? [y]es / [N]o: ');
      if (answer !== undefined) trust.remember(held.trustKey, held.fingerprint, /^(y|yes)$/i.test(answer.trim()));
    }
  }
  return { trust: trust.check };
}

/** Says on stderr what was wrong with mode files and which workspace mode files are not used. */
export function reportModes(catalog: ModeCatalog, err: NodeJS.WritableStream, style: Style): void {
  for (const error of catalog.errors) err.write(`${style.yellow(`Warning: ${style.text(error)}`)}\n`);
  if (catalog.heldBack) err.write(`${style.yellow(style.text(heldBackModesNote(catalog.heldBack, '--trust-workspace trusts it for this run')))}\n`);
}
