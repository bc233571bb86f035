// `smith preview-command [--cwd DIR] [--workspace DIR] [--patch] [--timeout S] [--output json] -- CMD…`:
// runs a command on a copy of the workspace folder under bubblewrap, without network, and prints
// what it would create, change and delete. Exit codes: 0 previewed in full, 1 not previewable
// (or no preview possible here), 2 usage error.
import { realpathSync } from 'node:fs';
import { type CommandPreview, previewSummaryLines, summarizePreview } from '../shared/command-preview-facts.js';
import { previewCommand } from '../core/preview/command-preview.js';
import { DEFAULT_PREVIEW_TIMEOUT_SECONDS, MAX_PREVIEW_TIMEOUT_SECONDS } from '../core/preview/preview-timeout.js';
import { loadSmithIgnore } from '../core/workspace/smith-ignore.js';
import type { SubcommandIo } from './subcommand-io.js';
import type { Style } from './style.js';
import { UsageError, parseFlags } from './usage-error.js';

const PREVIEW_USAGE = 'smith preview-command [--cwd DIR] [--workspace DIR] [--patch] [--timeout S] [--output json] -- CMD…';

const PREVIEW_HELP = `Usage: ${PREVIEW_USAGE}

Runs CMD (the words after --, joined with spaces into one shell command line) on a copy of the
workspace folder, under bubblewrap, with no network, and prints the files it would create, change
and delete there. Your files are never touched. See docs/command-preview.md.
  --cwd DIR        the folder the command runs in (default: the current folder)
  --workspace DIR  the workspace folder that is copied (default: the --cwd folder)
  --patch          print each text file's changes as a unified diff
  --timeout S      stop the command after S seconds (default ${DEFAULT_PREVIEW_TIMEOUT_SECONDS})
  --output json    the whole preview as one JSON object
Exit code 0: previewed in full; 1: not previewable (the reasons are printed) or no preview can run here.`;

function parsePreviewArgs(argv: readonly string[]) {
  return parseFlags(
    argv,
    {
      cwd: { type: 'string' },
      workspace: { type: 'string' },
      patch: { type: 'boolean', default: false },
      timeout: { type: 'string' },
      output: { type: 'string', default: 'human' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    { positionals: true, usage: `Usage: ${PREVIEW_USAGE}` },
  );
}

/** Runs `smith preview-command …` (argv after the subcommand's name); the exit code. */
export async function runPreviewCommand(argv: readonly string[], io: SubcommandIo): Promise<number> {
  const { values, positionals } = parsePreviewArgs(argv);
  if (values.help) {
    io.out.write(`${PREVIEW_HELP}\n`);
    return 0;
  }
  const command = positionals.join(' ').trim();
  if (command === '') throw new UsageError(`smith preview-command needs a command after --\nUsage: ${PREVIEW_USAGE}`);
  if (values.output !== 'human' && values.output !== 'json') throw new UsageError(`--output must be human or json; got "${values.output}"`);
  const timeoutSeconds = values.timeout === undefined ? DEFAULT_PREVIEW_TIMEOUT_SECONDS : Number(values.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0 || timeoutSeconds > MAX_PREVIEW_TIMEOUT_SECONDS) {
    throw new UsageError(`--timeout must be a number of seconds between 0 and ${MAX_PREVIEW_TIMEOUT_SECONDS}; got "${values.timeout}"`);
  }
  const cwd = existingFolder(values.cwd ?? io.cwd, '--cwd');
  const root = values.workspace === undefined ? cwd : existingFolder(values.workspace, '--workspace');
  if (cwd !== root && !cwd.startsWith(`${root}/`)) throw new UsageError(`--cwd ${cwd} is not inside --workspace ${root}`);
  const run = await previewCommand({
    command,
    cwd,
    root,
    timeoutSeconds,
    ignore: await loadSmithIgnore(root),
    ...(io.redactor ? { redact: (text: string) => io.redactor!.redact(text) } : {}),
  });
  try {
    const preview = run.result;
    if (values.output === 'json') io.out.write(`${JSON.stringify(preview)}\n`);
    else io.out.write(renderPreview(preview, io.style, values.patch));
    return preview.unavailable === undefined && preview.notPreviewable.length === 0 ? 0 : 1;
  } finally {
    run.dispose();
  }
}

/** The preview as the terminal shows it: the summary, the output, and with `patch` each text file's diff. */
export function renderPreview(preview: CommandPreview, style: Style, patch: boolean): string {
  const files = [...preview.created, ...preview.changed, ...preview.deleted];
  const counts = new Map(files.map((f) => [f.path, { added: f.added, removed: f.removed }]));
  const [head, ...rest] = previewSummaryLines(summarizePreview(preview), counts);
  const out = [style.bold(style.text(head ?? '')), ...rest.map((line) => style.text(line))];
  if (preview.ran && preview.output !== '') out.push(style.dim('Output:'), style.text(preview.output));
  if (patch) {
    for (const file of files) {
      if (file.patch) out.push(style.diff(file.patch).replace(/\n$/, ''));
      else if (file.binary) out.push(style.dim(style.text(`${file.path}: binary, no patch`)));
    }
  }
  return `${out.join('\n')}\n`;
}

function existingFolder(path: string, flag: string): string {
  try {
    return realpathSync(path);
  } catch {
    throw new UsageError(`${flag} folder does not exist: ${path}`);
  }
}
