// `smith import`'s one door: finds what a path is (a Claude Code session file, a Cline or Roo Code
// task folder), reads it with that format's reader and writes the task. The CLI and VS Code both use it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ImportSource } from '../log/conversation-events.js';
import { readClaudeCodeSession } from './claude-code-session.js';
import { isClineTaskFolder, readClineTask } from './cline-task.js';
import { ImportError, type ImportedSession } from './import-types.js';
import { type WriteImportOptions, type WrittenImport, writeImportedTask } from './write-imported-task.js';

/** What to import and how. */
export interface ImportOptions extends WriteImportOptions {
  /** The session file or task folder. */
  readonly path: string;
  /** The workspace folder, instead of the one the session names. */
  readonly cwd?: string;
  /** Which agent wrote a task folder (Cline and Roo Code write the same files); by default read from where the folder is. */
  readonly from?: ImportSource;
}

/** Reads the session at `path` (without writing anything). */
export async function readSession(path: string, options: { readonly cwd?: string; readonly from?: ImportSource } = {}): Promise<ImportedSession> {
  const full = resolve(path);
  if (!existsSync(full)) throw new ImportError(`${full} does not exist`);
  const cwd = options.cwd === undefined ? {} : { cwd: resolve(options.cwd) };
  const stat = statSync(full);
  if (stat.isFile()) {
    if (options.from !== undefined && options.from !== 'claude-code') throw new ImportError(`${full} is a file; a ${options.from} task is a folder`);
    return readClaudeCodeSession(full, cwd);
  }
  if (!stat.isDirectory()) throw new ImportError(`${full} is neither a file nor a folder`);
  if (isClineTaskFolder(full)) {
    if (options.from === 'claude-code') throw new ImportError(`${full} is a task folder; a Claude Code session is a .jsonl file`);
    return readClineTask(full, options.from ?? folderSource(full), cwd);
  }
  const sessions = readdirSync(full).filter((name) => name.endsWith('.jsonl'));
  if (sessions.length > 0)
    throw new ImportError(
      `${full} is a folder of Claude Code sessions; name one of them (${sessions.slice(0, 3).join(', ')}${sessions.length > 3 ? ', …' : ''})`,
    );
  throw new ImportError(
    `${full} is neither a Claude Code session (a .jsonl file) nor a Cline or Roo Code task folder (it has no api_conversation_history.json)`,
  );
}

/** Reads the session at `options.path` and writes it as a new task in `options.storageDir`. */
export async function importSession(options: ImportOptions): Promise<WrittenImport & { readonly session: ImportedSession }> {
  const session = await readSession(options.path, options);
  const written = await writeImportedTask(session, options);
  return { ...written, session };
}

/** Roo Code keeps its tasks under its extension id (`rooveterinaryinc.roo-cline`); every other folder is read as Cline's. */
function folderSource(dir: string): 'cline' | 'roo-code' {
  return /rooveterinaryinc\.roo-cline/i.test(dir) ? 'roo-code' : 'cline';
}

/** Where a VS Code extension's tasks are kept by default: `<VS Code user folder>/globalStorage/<extension id>/tasks`. */
export function extensionTasksDir(source: 'cline' | 'roo-code', env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform = process.platform): string {
  const user =
    platform === 'darwin'
      ? join(home, 'Library', 'Application Support', 'Code', 'User')
      : platform === 'win32'
        ? join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Code', 'User')
        : join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Code', 'User');
  return join(user, 'globalStorage', source === 'cline' ? 'saoudrizwan.claude-dev' : 'rooveterinaryinc.roo-cline', 'tasks');
}
