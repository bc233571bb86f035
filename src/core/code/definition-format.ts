import type { CodeDefinition } from './definition-extractor.js';

/** Longer lines (minified code) are cut so that one file cannot flood the context. */
const MAX_LINE_LENGTH = 200;

/**
 * One file's definitions in Cline's layout: the path, then each definition's line prefixed with
 * `│`, with `|----` before, after and between lines that are not adjacent in the file.
 */
export function formatDefinitions(displayPath: string, source: string, definitions: readonly CodeDefinition[]): string {
  const lines = source.split(/\r?\n/);
  const rows = [...new Set(definitions.map((definition) => definition.line))].sort((a, b) => a - b);
  let out = `${displayPath}\n|----\n`;
  rows.forEach((row, i) => {
    if (i > 0 && row > rows[i - 1]! + 1) out += '|----\n';
    out += `│${clip(lines[row] ?? '')}\n`;
  });
  return `${out}|----\n`;
}

function clip(line: string): string {
  const trimmed = line.trimEnd();
  return trimmed.length > MAX_LINE_LENGTH ? `${trimmed.slice(0, MAX_LINE_LENGTH)}…` : trimmed;
}
