import { join } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { parseProfiles, type ParsedProfiles } from '../shared/api-profiles.js';
import { NotRegularFileError, readRegularFileSync } from '../core/workspace/regular-file.js';

/** The user's settings file in Smith's storage folder, which holds the CLI's API profiles under `"profiles"`. */
export function userSettingsFile(storageDir: string): string {
  return join(storageDir, 'settings.json');
}

/** The API profiles of the user's settings file (comments allowed); a missing file has none, a broken one says why. */
export function loadCliProfiles(storageDir: string): ParsedProfiles {
  const file = userSettingsFile(storageDir);
  let text: string;
  try {
    text = readRegularFileSync(file).toString('utf8');
  } catch (error) {
    if (error instanceof NotRegularFileError) return { profiles: {}, problems: [error.message] };
    return { profiles: {}, problems: [] };
  }
  const errors: ParseError[] = [];
  const json = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) return { profiles: {}, problems: [`${file}: not valid JSON (${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset})`] };
  return parseProfiles((json as { profiles?: unknown } | null)?.profiles, file);
}
