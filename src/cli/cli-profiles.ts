import { join } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import type { ParsedProfiles } from '../shared/api-profiles.js';
import { NotRegularFileError, readRegularFileSync } from '../core/workspace/regular-file.js';

/** The user's settings file in Smith's storage folder, which holds the CLI's API profiles under `"profiles"`. */
export function userSettingsFile(storageDir: string): string {
  return join(storageDir, 'settings.json');
}

/** The API profiles of the user's settings file, and the profile each mode runs with (`planProfile`, `actProfile`). */
interface CliProfiles extends ParsedProfiles {
  readonly modeProfiles: { readonly plan?: string; readonly act?: string };
}

/** The API profiles of the user's settings file (comments allowed); a missing file has none, a broken one says why. */
export function loadCliProfiles(storageDir: string): CliProfiles {
  const file = userSettingsFile(storageDir);
  let text: string;
  try {
    text = readRegularFileSync(file).toString('utf8');
  } catch (error) {
    if (error instanceof NotRegularFileError) return { profiles: {}, problems: [error.message], modeProfiles: {} };
    return { profiles: {}, problems: [], modeProfiles: {} };
  }
  const errors: ParseError[] = [];
  const json = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0)
    return { profiles: {}, problems: [`${file}: not valid JSON (${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset})`], modeProfiles: {} };
  const settings = (typeof json === 'object' && json !== null ? json : {}) as { profiles?: unknown; planProfile?: unknown; actProfile?: unknown };
  const name = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
  const plan = name(settings.planProfile);
  const act = name(settings.actProfile);
  // Required here, not imported: its schemas (zod) are built only when there is a file to check,
  // which keeps `smith --list-models` without one close to Node's own start-up (see esbuild.mjs).
  const { parseProfiles } = require('../shared/api-profiles.js') as typeof import('../shared/api-profiles.js');
  return { ...parseProfiles(settings.profiles, file), modeProfiles: { ...(plan ? { plan } : {}), ...(act ? { act } : {}) } };
}
