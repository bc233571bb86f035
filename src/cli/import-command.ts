// `smith import [PATH | SESSION_ID]`: a Claude Code session, or a Cline or Roo Code task, as a Smith task. See docs/import-sessions.md.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { claudeCodeProjectDir, listClaudeCodeSessions } from '../core/import/claude-code-projects.js';
import { ImportError } from '../core/import/import-types.js';
import { extensionTasksDir, importSession } from '../core/import/import-session.js';
import { IMPORT_SOURCE_NAMES, type ImportSource } from '../core/log/conversation-events.js';
import { defaultStorageDir } from './default-storage.js';
import type { SubcommandIo } from './subcommand-io.js';
import { UsageError, parseFlags } from './usage-error.js';

const IMPORT_USAGE = `smith import [PATH | SESSION_ID] [--from claude-code|cline|roo-code] [--cwd DIR] [--latest]
             [--no-checkpoint] [--output human|json] [--storage DIR]`;

const IMPORT_HELP = `Usage: ${IMPORT_USAGE}

Brings a session of another agent into Smith's history as a task, to resume (smith --resume ID)
or replay (smith replay ID) with any model:
  PATH                 a Claude Code session file (~/.claude/projects/<folder>/<id>.jsonl), or a
                       Cline or Roo Code task folder (…/globalStorage/<extension>/tasks/<id>)
  SESSION_ID           a session of the current folder's Claude Code project, or with --from cline
                       or roo-code a task id in that extension's default folder
  (none)               lists the current folder's Claude Code sessions (--from: the extension's tasks)
  --latest             imports the newest of them instead
  --cwd DIR            the task's workspace folder, instead of the one the session names
  --from AGENT         whose format PATH is in (a task folder is Roo Code's when it is under
                       rooveterinaryinc.roo-cline, else Cline's)
  --no-checkpoint      take no checkpoint of the workspace (the task then cannot be replayed)
What could not be carried over is printed and kept with the task. See docs/import-sessions.md.`;

const SOURCES: readonly ImportSource[] = ['claude-code', 'cline', 'roo-code'];

/** `smith import …` (argv after the word import); returns the exit code. */
export async function runImportCommand(argv: readonly string[], io: SubcommandIo): Promise<number> {
  const { values, positionals } = parse(argv);
  if (values.help) {
    io.out.write(`${IMPORT_HELP}\n`);
    return 0;
  }
  if (values.output !== 'human' && values.output !== 'json') throw new UsageError(`--output must be human or json; got "${values.output}"\n${IMPORT_USAGE}`);
  if (values.from !== undefined && !SOURCES.includes(values.from as ImportSource))
    throw new UsageError(`--from must be one of ${SOURCES.join(', ')}; got "${values.from}"`);
  if (positionals.length > 1) throw new UsageError(`import takes one session at a time\n${IMPORT_USAGE}`);
  const from = values.from as ImportSource | undefined;
  const cwd = values.cwd === undefined ? undefined : resolve(io.cwd, values.cwd);
  if (cwd !== undefined && !(existsSync(cwd) && statSync(cwd).isDirectory())) throw new UsageError(`--cwd folder does not exist: ${values.cwd}`);
  const json = values.output === 'json';
  try {
    const path =
      positionals[0] !== undefined ? sessionPath(positionals[0], from, cwd ?? io.cwd, io) : listedPath(from, cwd ?? io.cwd, values.latest === true, io);
    if (path === undefined) return 0;
    const storageDir = values.storage ?? defaultStorageDir();
    const result = await importSession({
      path,
      storageDir,
      ...(cwd !== undefined ? { cwd } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(io.redactor ? { redactor: io.redactor } : {}),
      checkpoint: values['no-checkpoint'] !== true,
    });
    const { session } = result;
    if (json) {
      io.out.write(
        `${JSON.stringify({ taskId: result.taskId, source: session.source, path: session.path, sessionId: session.sessionId, cwd: result.cwd, events: result.events, notCarried: result.notCarried })}\n`,
      );
      return 0;
    }
    const style = io.style;
    io.out.write(
      `Imported ${IMPORT_SOURCE_NAMES[session.source]} session ${style.text(session.sessionId)} as task ${result.taskId} (${result.events} events, workspace ${style.text(result.cwd)})\n`,
    );
    if (result.notCarried.length === 0) io.out.write('Everything in it was carried over.\n');
    else io.out.write(`Not carried over:\n${result.notCarried.map((line) => `  - ${style.text(line)}\n`).join('')}`);
    io.out.write(`Continue with: smith --resume ${result.taskId} "your message"   (from ${style.text(result.cwd)}, or with --cwd)\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    io.err.write(`smith import: ${io.style.text(error.message)}\n`);
    return 1;
  }
}

/** The file or folder an argument names: a path, else a session id of the folder's Claude Code project or of the extension's tasks. */
function sessionPath(argument: string, from: ImportSource | undefined, cwd: string, io: SubcommandIo): string {
  const direct = resolve(io.cwd, argument);
  if (existsSync(direct)) return direct;
  // An id is one name: never `.` or `..`, which would name the folder above.
  if (/^[\w.-]+$/.test(argument) && !/^\.+$/.test(argument)) {
    const candidate =
      from === 'cline' || from === 'roo-code'
        ? join(extensionTasksDir(from, io.env, homedir()), argument)
        : join(claudeCodeProjectDir(cwd, io.env, homedir()), `${argument}.jsonl`);
    if (existsSync(candidate)) return candidate;
    throw new ImportError(`${argument} is neither a file or folder nor a session in ${candidate}`);
  }
  throw new ImportError(`${direct} does not exist`);
}

/** Without a session named: lists the sessions to choose from (undefined), or with `latest` picks the newest. */
function listedPath(from: ImportSource | undefined, cwd: string, latest: boolean, io: SubcommandIo): string | undefined {
  const home = homedir();
  const style = io.style;
  if (from === 'cline' || from === 'roo-code') {
    const dir = extensionTasksDir(from, io.env, home);
    const tasks = existsSync(dir)
      ? readdirSync(dir)
          .map((id) => ({ id, path: join(dir, id), at: statSync(join(dir, id)).mtimeMs }))
          .sort((a, b) => b.at - a.at)
      : [];
    if (tasks.length === 0) throw new ImportError(`no ${IMPORT_SOURCE_NAMES[from]} tasks in ${dir}; name a task folder`);
    if (latest) return tasks[0]!.path;
    io.out.write(
      `${IMPORT_SOURCE_NAMES[from]} tasks in ${style.text(dir)}, newest first:\n${tasks.map((t) => `  ${t.id}  ${new Date(t.at).toISOString()}\n`).join('')}`,
    );
    io.out.write(`Import one with: smith import --from ${from} ID   (or --latest)\n`);
    return undefined;
  }
  const dir = claudeCodeProjectDir(cwd, io.env, home);
  const sessions = listClaudeCodeSessions(dir);
  if (sessions.length === 0) throw new ImportError(`no Claude Code sessions for ${cwd} (looked in ${dir}); name a session file`);
  if (latest) return sessions[0]!.path;
  io.out.write(`Claude Code sessions of ${style.text(cwd)}, newest first:\n`);
  for (const session of sessions)
    io.out.write(`  ${session.sessionId}  ${new Date(session.modifiedAt).toISOString()}  ${style.text(session.firstMessage ?? '(no message)')}\n`);
  io.out.write('Import one with: smith import SESSION_ID   (or --latest)\n');
  return undefined;
}

function parse(args: readonly string[]) {
  return parseFlags(
    args,
    {
      help: { type: 'boolean', short: 'h' },
      from: { type: 'string' },
      cwd: { type: 'string' },
      latest: { type: 'boolean' },
      'no-checkpoint': { type: 'boolean' },
      output: { type: 'string', default: 'human' },
      storage: { type: 'string' },
    },
    { positionals: true, usage: IMPORT_USAGE },
  );
}
