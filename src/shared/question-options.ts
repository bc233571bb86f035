// The one reading of ask_followup_question's `options` parameter. The tool reads it once and logs
// the result (the question facts' `options`); old logs are given it when read (upcast-events.ts).

/** The most answers a question may offer. */
const MAX_OPTIONS = 5;

/**
 * The answers a question offers: `options` must be a JSON array of 2 to 5 strings, or absent or
 * blank for none. Returns what is wrong with it otherwise, worded for the model.
 */
export function parseQuestionOptions(raw: string | undefined): string[] | { readonly problem: string } {
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { problem: `options must be a JSON array of strings, e.g. ["Yes", "No"]; got: ${raw.slice(0, 200)}` };
  }
  if (!Array.isArray(parsed) || !parsed.every((o) => typeof o === 'string')) {
    return { problem: 'options must be a JSON array of strings, e.g. ["Yes", "No"].' };
  }
  if (parsed.length < 2 || parsed.length > MAX_OPTIONS) {
    return { problem: `options must hold 2 to ${MAX_OPTIONS} answers; got ${parsed.length}.` };
  }
  return parsed;
}
