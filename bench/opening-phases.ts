// Where the time of a cold open goes: the moments of one open, from the workbench's extension-host
// log, the extension's SMITH_ACTIVATION_REPORT marks and the webview's performance marks, all as
// wall-clock ms (epoch) of this one machine, turned into consecutive phases.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { OpeningMark } from '../src/host/vscode/opening-report.js';
import { OPENING_MARKS } from '../webview-ui/src/opening-marks.js';

/** The extension's report file (src/host/vscode/opening-report.ts). */
export interface OpeningReport {
  readonly activationMs?: number;
  readonly loadAndActivationMs?: number;
  readonly marks: Partial<Record<OpeningMark, number>>;
}

/** One moment of the open: when, and what had just happened. */
interface Moment {
  readonly at: number | undefined;
  readonly what: string;
}

/** A phase of the open: its name, when it ended relative to the click, and how long it took. */
export interface OpeningPhase {
  readonly phase: string;
  readonly endsAtMs: number;
  readonly ms: number;
}

/** The log's local timestamp ("2026-11-28 09:58:05.148") as epoch ms. */
function logTime(line: string): number | undefined {
  const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})/.exec(line);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, ms] = m.map(Number) as [number, number, number, number, number, number, number, number];
  return new Date(y, mo - 1, d, h, mi, s, ms).getTime();
}

/** The newest extension-host log under the workbench's user data (logs/<stamp>/exthost<n>/remoteexthost.log; a new window gets the next n). */
function extensionHostLog(userDataDir: string): string | undefined {
  const logs = join(userDataDir, 'logs');
  if (!existsSync(logs)) return undefined;
  for (const stamp of readdirSync(logs).sort().reverse()) {
    const hosts = readdirSync(join(logs, stamp))
      .filter((name) => /^exthost\d+$/.test(name))
      .sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
    for (const host of hosts.reverse()) {
      const file = join(logs, stamp, host, 'remoteexthost.log');
      if (existsSync(file)) return file;
    }
  }
  return undefined;
}

/** What the extension host logged of its start and of one extension's activation (epoch ms; undefined: not logged yet). */
export interface ExtensionHostTimes {
  /** The log read (each window's extension host has its own). */
  readonly log?: string;
  /** The process started. */
  readonly started?: number;
  /** It activated the extensions that start with it ('*'): the workbench's own start is over. */
  readonly eagerActivated?: number;
  /** It was told to activate the extension. */
  readonly activationRequested?: number;
}

/** Reads the extension host's log (it is written in batches, so a line may come a moment late). */
export function extensionHostTimes(userDataDir: string, extensionId: string): ExtensionHostTimes {
  const file = extensionHostLog(userDataDir);
  if (!file) return {};
  const lines = readFileSync(file, 'utf8').split('\n');
  const at = (test: (line: string) => boolean) => {
    const line = lines.find(test);
    return line === undefined ? undefined : logTime(line);
  };
  return {
    log: file,
    started: at((line) => /Extension host with pid \d+ started/.test(line)),
    eagerActivated: at((line) => line.includes('Eager extensions activated')),
    activationRequested: at((line) => line.includes(`_doActivateExtension ${extensionId},`)),
  };
}

/** The webview's own moments (epoch ms); undefined where a mark is missing. */
interface WebviewTimes {
  /** The workbench's webview frame (its pre/index.html) received the HTML ... */
  contentReceived?: number;
  /** ... and its service worker controls it (the first webview of a browser profile installs it). */
  workerReady?: number;
  /** The content frame's navigation started: the HTML is being written into it. */
  frameStarted?: number;
  scriptFetched?: number;
  scriptEvaluated?: number;
  firstSnapshot?: number;
  chatDrawn?: number;
  chatPainted?: number;
}

/**
 * Read in the page as a string: a function would be serialised with the helpers the TypeScript
 * loader adds (`__name`), which do not exist there.
 */
const READ_WEBVIEW_TIMES = `(() => {
  const names = ${JSON.stringify(OPENING_MARKS)};
  const mark = (name) => {
    const entry = performance.getEntriesByName(name, 'mark')[0];
    return entry ? performance.timeOrigin + entry.startTime : undefined;
  };
  const script = performance.getEntriesByType('resource').find((entry) => entry.name.split('?')[0].endsWith('/webview.js'));
  return {
    frameStarted: performance.timeOrigin,
    scriptFetched: script ? performance.timeOrigin + script.responseEnd : undefined,
    scriptEvaluated: mark(names.scriptEvaluated),
    firstSnapshot: mark(names.firstSnapshot),
    chatDrawn: mark(names.chatDrawn),
    chatPainted: mark(names.chatPainted),
  };
})()`;

/** The performance marks of the workbench's own webview page (pre/index.html), when it sets them. */
const READ_WORKBENCH_WEBVIEW_TIMES = `(() => {
  const mark = (name) => {
    const entry = performance.getEntriesByName('webview/index.html/' + name, 'mark')[0];
    return entry ? performance.timeOrigin + entry.startTime : undefined;
  };
  return { contentReceived: mark('content/started'), workerReady: mark('content/workerReady') };
})()`;

/**
 * The webview's moments, from the frame that ran Smith's webview script and its parent (the
 * workbench's webview page).
 */
export async function webviewTimes(page: Page): Promise<WebviewTimes> {
  for (const frame of page.frames()) {
    const times = (await frame.evaluate(READ_WEBVIEW_TIMES).catch(() => undefined)) as WebviewTimes | undefined;
    if (times?.scriptEvaluated === undefined) continue;
    const outer = (await frame
      .parentFrame()
      ?.evaluate(READ_WORKBENCH_WEBVIEW_TIMES)
      .catch(() => undefined)) as WebviewTimes | undefined;
    return { ...outer, ...times };
  }
  return {};
}

/**
 * The phases of the open: the moments up to `shownAt`, in the order they happened, each phase
 * named by the moments that bound it ("HTML set → webview page has the HTML"). A moment before the
 * click (the extension host already running) is left out; one after `shownAt` was not on the way
 * to the chat (with the snapshot in the page's HTML, `ready` and its answer come after it).
 */
export function openingPhases(clickedAt: number, moments: readonly Moment[], shownAt: number): OpeningPhase[] {
  const onTheWay = moments
    .filter((moment): moment is Moment & { at: number } => moment.at !== undefined && moment.at > clickedAt && moment.at <= shownAt)
    .sort((a, b) => a.at - b.at);
  const phases: OpeningPhase[] = [];
  let previous = { at: clickedAt, what: 'click' };
  // The open ends at the page's paint when it marked one, else where the benchmark saw the Task box.
  const last = onTheWay.at(-1);
  const end = last !== undefined && last.at === shownAt ? [] : [{ at: shownAt, what: 'the bench sees the Task box' }];
  for (const { at, what } of [...onTheWay, ...end]) {
    phases.push({ phase: `${previous.what} → ${what}`, endsAtMs: at - clickedAt, ms: at - previous.at });
    previous = { at, what };
  }
  return phases;
}

/** The moments of a cold open, each saying what had just happened; undefined where one was not recorded. */
export function openingMoments(host: ExtensionHostTimes, report: OpeningReport | undefined, webview: WebviewTimes): Moment[] {
  const marks = report?.marks ?? {};
  return [
    { at: host.started, what: 'extension host started' },
    { at: host.activationRequested, what: 'onView activation requested' },
    { at: marks.bundleLoadStarted, what: 'dist/extension.js read + compiled' },
    { at: marks.activateStarted, what: 'bundle evaluated' },
    { at: marks.activateFinished, what: 'activate() done' },
    { at: marks.coreLoadStarted, what: "Smith's core started loading" },
    { at: marks.coreLoaded, what: "Smith's core loaded" },
    { at: marks.viewResolved, what: 'resolveWebviewView called' },
    { at: marks.htmlSet, what: 'HTML set' },
    { at: webview.contentReceived, what: 'webview page has the HTML' },
    { at: webview.workerReady, what: "workbench's service worker ready" },
    { at: webview.frameStarted, what: 'content frame created' },
    { at: webview.scriptFetched, what: 'webview.js fetched' },
    { at: webview.scriptEvaluated, what: 'webview.js evaluated' },
    { at: marks.readyReceived, what: "host received 'ready'" },
    { at: marks.firstSnapshotPosted, what: 'host posted the snapshot' },
    { at: webview.firstSnapshot, what: 'webview has a snapshot' },
    { at: webview.chatDrawn, what: 'chat rendered' },
    { at: webview.chatPainted, what: 'chat painted' },
  ];
}
