// A page of 5 MB, of 50 MB, one that never ends and one gzip that inflates to 1 GB, through web_fetch and an @url mention: each is
// fetched by a child process whose peak RSS is measured (process.resourceUsage().maxRSS), so the
// DOM work is shown to stay bounded. Memory, not time, is asserted; the small page is the baseline.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { startHostileWebServer, type HostileWebServer } from '../../fixtures/hostile-web-server.js';

const run = promisify(execFile);
const CHILD = join(__dirname, '../../fixtures/fetch-page-child.ts');
/** The bound the plan sets for one fetch of a huge page, for the whole process. */
const MAX_RSS_MB = 300;

interface ChildReport {
  readonly maxRssMb: number;
  readonly chars: number;
  readonly head: string;
  readonly truncated?: boolean;
}

async function fetchInChild(mode: 'web_fetch' | 'mention', url: string): Promise<ChildReport> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD, mode, url], { timeout: 600_000, maxBuffer: 1024 * 1024 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildReport;
}

describe('huge pages stay small in memory', () => {
  let server: HostileWebServer;
  before(async () => {
    server = await startHostileWebServer();
  });
  after(async () => {
    await server.close();
  });

  test('5 MB, 50 MB, endless and gzip-bomb pages through web_fetch: cut, said so, and under 300 MB', { timeout: 1_800_000 }, async () => {
    const baseline = await fetchInChild('web_fetch', `${server.origin}/page?title=Small`);
    assert.match(baseline.head, /^# Small/);
    for (const path of ['/big?mb=5&kind=divs', '/big?mb=5&kind=data', '/big?mb=50&kind=divs', '/big?mb=50&kind=script', '/endless', '/gzip-bomb']) {
      const report = await fetchInChild('web_fetch', `${server.origin}${path}`);
      console.log(`web_fetch ${path}: peak RSS ${Math.round(report.maxRssMb)} MB (a small page: ${Math.round(baseline.maxRssMb)} MB)`);
      assert.ok(report.maxRssMb < MAX_RSS_MB, `${path}: peak RSS ${report.maxRssMb} MB`);
      assert.match(report.head, /\[The page is larger than 5 MB; only its first 5 MB were read\.\]/, path);
      assert.equal(report.truncated, true, path);
    }
  });

  test('the same pages as @url mentions', { timeout: 1_800_000 }, async () => {
    for (const path of ['/big?mb=5&kind=divs', '/endless']) {
      const report = await fetchInChild('mention', `${server.origin}${path}`);
      console.log(`@url ${path}: peak RSS ${Math.round(report.maxRssMb)} MB`);
      assert.ok(report.maxRssMb < MAX_RSS_MB, `${path}: peak RSS ${report.maxRssMb} MB`);
      assert.match(report.head, /only its first 5 MB were read/, path);
    }
  });
});
