import { join } from 'node:path';

/** A workspace folder's custom modes in Roo Code's format, at the folder's top. */
export const ROOMODES_FILE = '.roomodes';

/** The user's own modes in Roo Code's format, in Smith's storage folder. */
export const GLOBAL_MODES_FILE = 'custom_modes.yaml';

/** Roo Code's extension id, whose VS Code global storage holds its global modes. */
const ROO_EXTENSION_ID = 'rooveterinaryinc.roo-cline';

/**
 * Roo Code's own global modes file: `settings/custom_modes.yaml` in its VS Code global storage
 * (`~/.config/Code/User/globalStorage/…` on Linux, `~/Library/Application Support/Code/…` on
 * macOS, `%APPDATA%\Code\…` on Windows), so the modes a Roo Code user made are there unchanged.
 */
export function rooGlobalModesFile(home: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  const config =
    platform === 'win32'
      ? (env.APPDATA ?? join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : env.XDG_CONFIG_HOME || join(home, '.config');
  return join(config, 'Code', 'User', 'globalStorage', ROO_EXTENSION_ID, 'settings', GLOBAL_MODES_FILE);
}
