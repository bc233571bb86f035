// A mode's fileRegex, judged on the path an edit really changes. The pattern comes from a file
// (a repository's `.roomodes`), so matching is bounded: paths longer than MAX_PATH_CHARS or
// holding control characters are refused without matching, and a match that runs longer than
// MATCH_TIMEOUT_MS (catastrophic backtracking) is stopped and counts as no match.
import { Script, createContext } from 'node:vm';

/** Longest path a fileRegex is tested against; a longer one is refused. */
export const MAX_PATH_CHARS = 4096;

/** How long one match may run before it is stopped (and the edit refused). */
export const MATCH_TIMEOUT_MS = 250;

const sandbox = createContext({});
const test = new Script('pattern.test(subject)');

/** Whether `path` matches `pattern`: 'match', 'no-match', or why it could not be judged. */
export function matchFileRegex(pattern: string, path: string): 'match' | 'no-match' | { readonly problem: string } {
  if (path.length > MAX_PATH_CHARS) return { problem: `the path is longer than ${MAX_PATH_CHARS} characters` };
  // A line break would let `^…$` patterns judge one line of the name and not the whole of it.
  if (/[\u0000-\u001f\u007f]/.test(path)) return { problem: 'the path holds a line break or another control character' };
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch (error) {
    return { problem: `the pattern is not a valid regular expression (${(error as Error).message})` };
  }
  sandbox.pattern = regex;
  sandbox.subject = path;
  try {
    return test.runInContext(sandbox, { timeout: MATCH_TIMEOUT_MS }) === true ? 'match' : 'no-match';
  } catch {
    return { problem: `matching the pattern took longer than ${MATCH_TIMEOUT_MS} ms (it backtracks too much), so nothing was allowed` };
  } finally {
    sandbox.pattern = undefined;
    sandbox.subject = undefined;
  }
}
