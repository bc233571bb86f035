import type { SecretRedactor } from '../core/secrets/secret-redactor.js';
import { terminalSafeText } from './terminal-safe-text.js';

/**
 * Terminal colours, or plain text when the stream is not a terminal; and the one gate for text
 * Smith did not write itself, so only Smith's own styling reaches the terminal.
 */
export interface Style {
  /** Untrusted text (the model's, a tool's, an MCP server's) made safe to print: no escape or control sequences, no secrets. */
  text(untrusted: string): string;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  /** Colours a unified diff line by line (its text passes through text() first). */
  diff(patch: string): string;
}

/** ANSI styling when enabled (a TTY without NO_COLOR), identity otherwise; `redactor` hides the user's secrets. */
export function createStyle(enabled: boolean, redactor?: SecretRedactor): Style {
  const wrap = (code: number, reset: number) => (text: string) => (enabled ? `\x1b[${code}m${text}\x1b[${reset}m` : text);
  const red = wrap(31, 39);
  const green = wrap(32, 39);
  const cyan = wrap(36, 39);
  const text = (untrusted: string) => terminalSafeText(redactor ? redactor.redact(untrusted) : untrusted);
  return {
    text,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red,
    green,
    yellow: wrap(33, 39),
    cyan,
    diff: (patch) =>
      text(patch)
        .split('\n')
        .filter((line) => !line.startsWith('====='))
        .map((line) =>
          line.startsWith('+') && !line.startsWith('+++')
            ? green(line)
            : line.startsWith('-') && !line.startsWith('---')
              ? red(line)
              : line.startsWith('@@')
                ? cyan(line)
                : line,
        )
        .join('\n'),
  };
}
