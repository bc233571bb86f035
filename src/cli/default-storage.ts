import { homedir } from 'node:os';
import { join } from 'node:path';

/** The per-user folder for task logs, following each platform's convention. */
export function defaultStorageDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.SMITH_STORAGE) return env.SMITH_STORAGE;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'smith');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'smith');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'smith');
}
