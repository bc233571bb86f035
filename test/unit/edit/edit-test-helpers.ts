import assert from 'node:assert/strict';
import { applySearchReplace } from '../../../src/core/edit/search-replace-engine.js';
import type { EditApplied, EditFailed } from '../../../src/core/edit/types.js';

/** Lines joined with LF; an empty list is an empty part (a deletion in REPLACE). */
export function lines(...parts: string[]): string {
  return parts.join('\n');
}

/** One block in Cline's dialect, with `count` marker characters. */
export function clineBlock(search: string, replace: string, count = 7): string {
  return [`${'-'.repeat(count)} SEARCH`, ...section(search), '='.repeat(count), ...section(replace), `${'+'.repeat(count)} REPLACE`].join('\n');
}

/** One block in Roo Code's dialect, with an optional `:start_line:` hint. */
export function rooBlock(search: string, replace: string, startLine?: number): string {
  const preamble = startLine === undefined ? [] : [`:start_line:${startLine}`, '-------'];
  return ['<<<<<<< SEARCH', ...preamble, ...section(search), '=======', ...section(replace), '>>>>>>> REPLACE'].join('\n');
}

/** Several blocks, as a model writes them one after another. */
export function diffOf(...blocks: string[]): string {
  return blocks.join('\n\n');
}

/** Applies a diff that must succeed and returns the result. */
export function applyOk(original: string, diff: string): EditApplied {
  const result = applySearchReplace(original, diff);
  if (!result.ok) assert.fail(`expected the edit to apply, got: ${result.error}`);
  return result;
}

/** Applies a diff that must fail and returns the failure. */
export function applyFails(original: string, diff: string): EditFailed {
  const result = applySearchReplace(original, diff);
  if (result.ok) assert.fail(`expected the edit to fail, got content: ${JSON.stringify(result.content)}`);
  return result;
}

function section(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}
