import type { CommandEnd, ToolFacts } from './tool-details.js';

/**
 * One short line of what a read, listing, search, outline, fetch or browser action found ("lines 1–40 of 120",
 * "5 matches in 2 files"), from the result's facts; undefined for other results and for results
 * logged without facts. The panel's cards and the CLI both print it.
 */
export function findingsLine(details: ToolFacts | undefined): string | undefined {
  if (details === undefined) return undefined;
  const { read, list, search, outline, fetch, browser } = details;
  if (fetch !== undefined) return `${plural(fetch.chars, 'character')} of Markdown${fetch.truncated ? ' (cut to the cap)' : ''}`;
  if (browser !== undefined) {
    const said = browser.console.length === 0 ? 'no new console messages' : plural(browser.console.length, 'console message');
    return browser.url === undefined ? said : `${browser.url} · ${said}`;
  }
  if (read !== undefined) {
    if (read.totalLines === 0) return 'empty file';
    const whole = read.firstLine === 1 && read.lastLine === read.totalLines;
    return whole ? plural(read.totalLines, 'line') : `lines ${read.firstLine}–${read.lastLine} of ${read.totalLines}`;
  }
  if (list !== undefined) return `${plural(list.entries, 'entry', 'entries')}${list.truncated ? ' (more not listed)' : ''}`;
  if (search !== undefined) {
    const where = plural(search.files, search.path === undefined ? 'server' : 'file');
    return `${plural(search.matches, 'match', 'matches')} in ${where}${search.truncated ? ' (more not shown)' : ''}`;
  }
  if (outline !== undefined) {
    const skipped = outline.skipped > 0 ? `, ${outline.skipped} skipped` : '';
    return `${plural(outline.definitions, 'definition')} in ${plural(outline.files, 'file')}${skipped}`;
  }
  return undefined;
}

/** How a command ended, in words: "exit code 0", "ended by SIGTERM", "killed after 600 s", "still running in the background (id 2)". */
export function commandEndText(end: CommandEnd): string {
  switch (end.kind) {
    case 'exited':
      return end.exitCode !== null ? `exit code ${end.exitCode}` : `ended by ${end.signal ?? 'a signal'}`;
    case 'timed_out':
      return `killed after ${end.timeoutSeconds} s: it did not finish`;
    case 'backgrounded':
      return `still running in the background (id ${end.sessionId})`;
  }
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
