// Webview: the real panel bundle (production build of webview-ui plus the dev harness that plays
// the extension host) in Debian's headless Chromium. A task of 5,000 UI messages against an empty
// task (only its first message): time to the first paint of the list, the longest frame while
// 1,000 streamed deltas arrive, and the JS heap.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { HostMessage, PanelState, ProviderSettingsView, TaskView } from '../src/shared/protocol.js';
import { storedLine } from '../src/core/log/stored-events.js';
import { taskEventsFile } from '../src/core/log/task-log.js';
import { Emitter } from '../src/panel/event-emitter.js';
import type { EditReview, PanelProviderSettings } from '../src/panel/panel-ports.js';
import { TaskController } from '../src/panel/task-controller.js';
import { WebviewInteractions } from '../src/panel/webview-interactions.js';
import { ToolHarness } from '../test/helpers/tool-harness.js';
import { statusOf, times, type BenchOptions, type BenchOutcome, type Row } from './report.js';
import { median, ratio, round } from './timing.js';
import { taskLog } from './ui-projection.js';
import { CHROMIUM_ARGS } from '../scripts/workbench/browser.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BIG = 5_000;
const DELTAS = 1_000;
/** Opening a stored task from the history: a task of HISTORY_LARGE events against one of HISTORY_SMALL. */
const HISTORY_SMALL = 100;
const HISTORY_LARGE = 10_000;
const HISTORY_TARGET = 2;
/** Rounds of the history figure (medians of each size). */
const HISTORY_ROUNDS = 9;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ttf': 'font/ttf',
};

/** What the harness page offers a benchmark (webview-ui/dev/harness.ts). */
interface HarnessWindow {
  __posted: Array<{ type: string }>;
  __host: { send(message: HostMessage): void; sampleState(count?: number): PanelState };
}

function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const file = resolve(dir, `.${decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname)}`);
    if (!file.startsWith(dir + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

/** One sample on a fresh page: first paint of a task of `count` messages, heap, then the stream. */
async function sample(
  browser: Browser,
  url: string,
  count: number,
  stream: boolean,
  opened?: TaskView,
): Promise<{ firstPaintMs: number; heapBytes: number; stream?: { longestFrameMs: number; longestTaskMs: number; totalMs: number } }> {
  const context = await browser.newContext({ viewport: { width: 420, height: 720 } });
  try {
    // tsx compiles this file with esbuild's keepNames, whose __name helper the functions handed to
    // page.evaluate refer to; the page needs its own.
    await context.addInitScript('globalThis.__name = (fn) => fn;');
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${url}/harness.html`);
    await page.waitForFunction(() => (window as unknown as HarnessWindow).__posted.some((m) => m.type === 'ready'));

    const firstPaintMs = await page.evaluate(
      async ({ n, given }) => {
        const harness = window as unknown as HarnessWindow;
        // Built before the clock starts: only the panel's own work is timed.
        const state = harness.__host.sampleState(given ? 1 : n);
        const running: PanelState = { ...state, task: given ?? { ...state.task!, status: 'running' } };
        const start = performance.now();
        harness.__host.send({ type: 'snapshot', state: running });
        await new Promise<void>((done) => {
          // The row is committed to the DOM before some animation frame; the frame paints right after
          // its callbacks, and a task queued from it runs once the paint is done.
          const tick = () => (document.querySelector(`.chat-row[data-index="${n - 1}"]`) ? setTimeout(done, 0) : requestAnimationFrame(tick));
          requestAnimationFrame(tick);
        });
        return performance.now() - start;
      },
      { n: opened ? opened.messages.length : count, given: opened },
    );

    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };

    let streamResult: { longestFrameMs: number; longestTaskMs: number; totalMs: number } | undefined;
    if (stream) {
      streamResult = await page.evaluate(
        async ({ deltas, taskId }) => {
          const harness = window as unknown as HarnessWindow;
          const frames: number[] = [];
          let last = performance.now();
          let measuring = true;
          const frame = (now: number) => {
            frames.push(now - last);
            last = now;
            if (measuring) requestAnimationFrame(frame);
          };
          let longestTask = 0;
          const observer = new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) longestTask = Math.max(longestTask, entry.duration);
          });
          observer.observe({ entryTypes: ['longtask'] });
          requestAnimationFrame((now) => {
            last = now;
            requestAnimationFrame(frame);
          });
          await new Promise((done) => setTimeout(done, 50));

          // A streamed answer of Markdown, a few dozen characters per delta, each delta its own
          // task (as postMessage events from the extension host arrive), as fast as they come.
          const pieces = [
            'I will ',
            'update the **validation** ',
            'in `src/form.ts`:\n\n',
            '- check the schema\n',
            '- reject empty names\n\n',
            '```ts\nconst ok = validate(input);\n```\n\n',
            'Then I run the tests. ',
          ];
          const channel = new MessageChannel();
          const start = performance.now();
          let text = '';
          await new Promise<void>((done) => {
            let i = 0;
            channel.port1.onmessage = () => {
              text += pieces[i % pieces.length]!;
              harness.__host.send({ type: 'streaming', taskId, text: i === deltas - 1 ? `${text} END-OF-STREAM` : text, reasoning: '' });
              i++;
              if (i < deltas) channel.port2.postMessage(0);
              else done();
            };
            channel.port2.postMessage(0);
          });
          await new Promise<void>((done) => {
            const tick = () =>
              document.querySelector('.msg-assistant.streaming')?.textContent?.includes('END-OF-STREAM') ? setTimeout(done, 0) : requestAnimationFrame(tick);
            requestAnimationFrame(tick);
          });
          const totalMs = performance.now() - start;
          await new Promise((done) => setTimeout(done, 100));
          measuring = false;
          observer.disconnect();
          return { longestFrameMs: Math.max(...frames), longestTaskMs: longestTask, totalMs };
        },
        { deltas: DELTAS, taskId: 'demo' },
      );
    }
    if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
    return { firstPaintMs, heapBytes: heap.usedSize, ...(streamResult ? { stream: streamResult } : {}) };
  } finally {
    await context.close();
  }
}

/**
 * The host's part of opening a stored task from the history, in ms: the panel's TaskController
 * opens it (the end of its log read, the newest page of its chat projected) and the snapshot the
 * webview is posted is built and serialised. The history list, which the user sees before
 * clicking, is read first and not timed. The task as the snapshot carries it.
 */
async function openStoredTask(storageDir: string, taskId: string): Promise<{ hostMs: number; task: TaskView }> {
  const controller = panelController(storageDir);
  try {
    // The history list is read in the background as the panel opens; the user clicks a task in it.
    await new Promise<void>((listed) => {
      if (controller.snapshot().historyLoading !== true) return listed();
      const subscription = controller.onDidChange(() => {
        if (controller.snapshot().historyLoading === true) return;
        subscription.dispose();
        listed();
      });
    });
    const start = performance.now();
    await controller.openTask(taskId);
    const message = JSON.stringify({ type: 'snapshot', state: controller.snapshot() });
    const hostMs = performance.now() - start;
    return { hostMs, task: (JSON.parse(message) as { state: PanelState }).state.task! };
  } finally {
    controller.dispose();
  }
}

/** The panel's controller on a storage folder, with no provider set up (a stored task is only viewed). */
function panelController(storageDir: string): TaskController {
  const view: ProviderSettingsView = {
    provider: 'openai-compatible',
    model: 'm',
    baseUrl: 'http://127.0.0.1',
    toolProtocol: 'xml',
    hasApiKey: true,
    missing: [],
  };
  const settings: PanelProviderSettings = {
    basics: () => view,
    view: async () => view,
    save: async () => {},
    createEnvironment: async () => undefined,
    listModels: async () => {
      throw new Error('not listed in the benchmark');
    },
    autoApprove: () => ({ readFiles: true, editFiles: false, safeCommands: false, allCommands: false, mcpTools: false, maxRequests: 25 }),
    saveAutoApprove: async () => {},
    disabledRules: () => [],
    saveDisabledRules: async () => {},
    onDidChange: new Emitter<void>().event,
  };
  const edits: EditReview = { streamPartial: () => {}, present: async () => {}, accept: async () => ({}), reject: async () => {}, discard: async () => {} };
  const interactions = new WebviewInteractions(edits, () => storageDir);
  return new TaskController({
    storageDir,
    cwd: () => storageDir,
    host: { ...new ToolHarness(storageDir).host, notify: () => {} },
    settings,
    interactions,
    edits,
    saveExport: async () => {},
    checkpointViews: { showChanges: async () => {}, confirm: async () => false, openFile: async () => {} },
  });
}

/** Stores a realistic task log of `length` events; its id. */
function storeTask(storageDir: string, length: number): string {
  const taskId = `history-${length}`;
  const file = taskEventsFile(storageDir, taskId);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    taskLog(length)
      .map((event) => `${storedLine(event)}\n`)
      .join(''),
  );
  return taskId;
}

/** Runs the webview benchmark. */
export async function runWebviewBench(options: BenchOptions): Promise<BenchOutcome> {
  if (!existsSync(CHROMIUM)) {
    return {
      results: { first_paint_ratio: null, longest_frame_ms: null, todo: `Chromium not found at ${CHROMIUM}` },
      rows: [{ bench: 'webview', metric: 'not run: Chromium missing (set CHROMIUM_PATH)', value: 'n/a', target: '', status: 'TODO' }],
      notes: [],
    };
  }
  const outdir = mkdtempSync(join(tmpdir(), 'smith-bench-webview-'));
  const { buildWebview } = (await import(pathToFileURL(join(options.root, 'webview-ui', 'build.mjs')).href)) as typeof import('../webview-ui/build.mjs');
  // The production bundle (minified, React's production build) is what users run.
  await buildWebview({ production: true, outdir });
  const { server, url } = await serve(outdir);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS], headless: true });
  try {
    const paintRepeats = options.quick ? 1 : 3;
    const streamRepeats = options.quick ? 1 : 3;
    const empty: Awaited<ReturnType<typeof sample>>[] = [];
    const big: Awaited<ReturnType<typeof sample>>[] = [];
    // Warm-up: the first page of a browser pays for its start.
    await sample(browser, url, 1, false);
    for (let round = 0; round < Math.max(paintRepeats, streamRepeats); round++) {
      const stream = round < streamRepeats;
      empty.push(await sample(browser, url, 1, stream));
      big.push(await sample(browser, url, BIG, stream));
      options.log(
        `webview round ${round + 1}: first paint ${empty.at(-1)!.firstPaintMs.toFixed(1)} / ${big.at(-1)!.firstPaintMs.toFixed(1)} ms${stream ? `, longest frame ${empty.at(-1)!.stream!.longestFrameMs.toFixed(1)} / ${big.at(-1)!.stream!.longestFrameMs.toFixed(1)} ms` : ''}`,
      );
    }
    const med = (list: typeof empty, pick: (s: (typeof empty)[number]) => number | undefined) =>
      median(list.map(pick).filter((v): v is number => v !== undefined));
    const paintEmpty = med(empty, (s) => s.firstPaintMs);
    const paintBig = med(big, (s) => s.firstPaintMs);
    const frameEmpty = med(empty, (s) => s.stream?.longestFrameMs);
    const frameBig = med(big, (s) => s.stream?.longestFrameMs);
    const taskBig = med(big, (s) => s.stream?.longestTaskMs);
    const taskEmpty = med(empty, (s) => s.stream?.longestTaskMs);
    const streamEmpty = med(empty, (s) => s.stream?.totalMs);
    const streamBig = med(big, (s) => s.stream?.totalMs);
    const heapEmpty = med(empty, (s) => s.heapBytes);
    const heapBig = med(big, (s) => s.heapBytes);
    const firstPaintRatio = ratio(paintBig, paintEmpty, 2);

    // History → visible chat: the host reads and projects the stored task, the webview draws it.
    const storage = mkdtempSync(join(tmpdir(), 'smith-bench-history-'));
    const history: Record<number, number[]> = { [HISTORY_SMALL]: [], [HISTORY_LARGE]: [] };
    let historyMessages: Record<number, number> = {};
    let historyPosted: Record<number, number> = {};
    let historyHostMs = { small: 0, large: 0 };
    try {
      const ids: Record<number, string> = { [HISTORY_SMALL]: storeTask(storage, HISTORY_SMALL), [HISTORY_LARGE]: storeTask(storage, HISTORY_LARGE) };
      // More rounds than the paint figures: each sample is short and a loaded machine makes it swing;
      // the order alternates, so neither size always goes first.
      const rounds = options.quick ? 2 : HISTORY_ROUNDS;
      const hostMs: Record<number, number[]> = { [HISTORY_SMALL]: [], [HISTORY_LARGE]: [] };
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? [HISTORY_SMALL, HISTORY_LARGE] : [HISTORY_LARGE, HISTORY_SMALL];
        for (const size of order) {
          const host = await openStoredTask(storage, ids[size]!);
          const page = await sample(browser, url, 0, false, host.task);
          history[size]!.push(host.hostMs + page.firstPaintMs);
          hostMs[size]!.push(host.hostMs);
          historyMessages = { ...historyMessages, [size]: (host.task.messagesFrom ?? 0) + host.task.messages.length };
          historyPosted = { ...historyPosted, [size]: host.task.messages.length };
        }
        options.log(
          `webview history round ${round + 1}: ${history[HISTORY_SMALL]!.at(-1)!.toFixed(1)} / ${history[HISTORY_LARGE]!.at(-1)!.toFixed(1)} ms (host ${hostMs[HISTORY_SMALL]!.at(-1)!.toFixed(1)} / ${hostMs[HISTORY_LARGE]!.at(-1)!.toFixed(1)} ms)`,
        );
      }
      historyHostMs = { small: round(median(hostMs[HISTORY_SMALL]!), 1), large: round(median(hostMs[HISTORY_LARGE]!), 1) };
    } finally {
      rmSync(storage, { recursive: true, force: true });
    }
    const historyRatio = ratio(median(history[HISTORY_LARGE]!), median(history[HISTORY_SMALL]!), 2);
    const results = {
      first_paint_ratio: firstPaintRatio,
      longest_frame_ms: round(frameBig, 1),
      longest_frame_ratio: ratio(frameBig, frameEmpty, 2),
      longest_frame_empty_ms: round(frameEmpty, 1),
      longest_task_ms: round(taskBig, 1),
      longest_task_empty_ms: round(taskEmpty, 1),
      stream_total_ratio: ratio(streamBig, streamEmpty, 2),
      heap_ratio: ratio(heapBig, heapEmpty, 2),
      heap_5000_mb: round(heapBig / 2 ** 20, 1),
      heap_empty_mb: round(heapEmpty / 2 ** 20, 1),
      heap_per_message_kb: round((heapBig - heapEmpty) / (BIG - 1) / 1024, 2),
      first_paint_ms: { empty: round(paintEmpty, 1), big: round(paintBig, 1) },
      history_open_ratio: historyRatio,
      history_open_ms: { small: round(median(history[HISTORY_SMALL]!), 1), large: round(median(history[HISTORY_LARGE]!), 1) },
      history_messages: historyMessages,
      history_messages_posted: historyPosted,
      history_host_ms: historyHostMs,
      messages: BIG,
      deltas: DELTAS,
      build: 'production webview + dev harness, Chromium headless, 420x720',
    };
    const rows: Row[] = [
      {
        bench: 'webview',
        metric: `history → visible chat, task of ${HISTORY_LARGE} events / ${HISTORY_SMALL} (open, snapshot, paint)`,
        value: times(historyRatio, 2),
        target: `<= ${HISTORY_TARGET}x`,
        status: statusOf(historyRatio, (v) => v <= HISTORY_TARGET),
      },
      {
        bench: 'webview',
        metric: `first paint, ${BIG} messages / empty task`,
        value: times(firstPaintRatio, 2),
        target: '',
        status: firstPaintRatio === null ? 'TODO' : 'info',
      },
      {
        bench: 'webview',
        metric: `longest frame during ${DELTAS} deltas, ${BIG} msgs / empty`,
        value: times(results.longest_frame_ratio, 2),
        target: '',
        status: 'info',
      },
      {
        bench: 'webview',
        metric: `  longest frame, ${BIG} messages (ms; empty task: ${results.longest_frame_empty_ms})`,
        value: String(results.longest_frame_ms),
        target: '',
        status: 'info',
      },
      {
        bench: 'webview',
        metric: `  whole stream of ${DELTAS} deltas, ${BIG} msgs / empty`,
        value: times(results.stream_total_ratio, 2),
        target: '',
        status: 'info',
      },
      {
        bench: 'webview',
        metric: `JS heap, ${BIG} messages / empty task (${results.heap_5000_mb} MB)`,
        value: times(results.heap_ratio, 2),
        target: '',
        status: 'info',
      },
    ];
    return { results, rows, notes: [] };
  } finally {
    await browser.close();
    await new Promise<void>((done) => server.close(() => done()));
    rmSync(outdir, { recursive: true, force: true });
  }
}
