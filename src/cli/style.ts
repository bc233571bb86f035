/** Terminal colours, or plain text when the stream is not a terminal. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  /** Colours a unified diff line by line. */
  diff(patch: string): string;
}

/** ANSI styling when enabled (a TTY without NO_COLOR), identity otherwise. */
export function createStyle(enabled: boolean): Style {
  const wrap = (code: number, reset: number) => (text: string) => (enabled ? `\x1b[${code}m${text}\x1b[${reset}m` : text);
  const red = wrap(31, 39);
  const green = wrap(32, 39);
  const cyan = wrap(36, 39);
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red,
    green,
    yellow: wrap(33, 39),
    cyan,
    diff: (patch) =>
      patch
        .split('\n')
        .filter((line) => !line.startsWith('====='))
        .map((line) =>
          line.startsWith('+') && !line.startsWith('+++') ? green(line)
          : line.startsWith('-') && !line.startsWith('---') ? red(line)
          : line.startsWith('@@') ? cyan(line)
          : line,
        )
        .join('\n'),
  };
}
