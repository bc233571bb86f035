// Command preview for real (bubblewrap, real shells and processes): the command runs on a copy of
// the workspace, the real workspace stays byte-identical whatever the command tries, and what it
// would create, change and delete is reported exactly.
import assert from 'node:assert/strict';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, before, beforeEach, describe, test } from 'node:test';
import { previewCommand, type PreviewRun } from '../../../src/core/preview/command-preview.js';
import { findSandbox } from '../../../src/core/process/task-sandbox.js';
import { folderFingerprint } from '../../helpers/folder-fingerprint.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let noSandbox: string | undefined;
before(async () => {
  const found = await findSandbox();
  noSandbox = 'reason' in found ? `no working bubblewrap: ${found.reason}` : undefined;
});

/** A test that needs a working bubblewrap (skipped, with the reason, without one). */
function it(name: string, body: () => Promise<void>): void {
  test(name, async (t) => {
    if (noSandbox) return t.skip(noSandbox);
    await body();
  });
}

let ws: TempWorkspace;
let outside: string;
let runs: PreviewRun[];

beforeEach(() => {
  ws = createTempWorkspace('smith-preview-');
  // Not in /tmp, which a preview replaces with a throwaway folder: a real folder that must stay as it is.
  mkdirSync(join(homedir(), '.cache'), { recursive: true });
  outside = mkdtempSync(join(homedir(), '.cache', 'smith-preview-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'outside\n');
  ws.write('src/app.ts', 'export const a = 1;\nexport const b = 2;\n');
  ws.write('README.md', '# Readme\n');
  ws.write('gone.txt', 'to be deleted\n');
  ws.write('data.bin', Buffer.from([0, 1, 2, 3]));
  symlinkSync(outside, join(ws.root, 'escape'));
  symlinkSync(join(ws.root, 'src'), join(ws.root, 'inward'));
  symlinkSync('README.md', join(ws.root, 'readme-link'));
  linkSync(join(ws.root, 'README.md'), join(ws.root, 'hard-link.md'));
  runs = [];
});

afterEach(() => {
  for (const run of runs) run.dispose();
  ws.dispose();
  rmSync(outside, { recursive: true, force: true });
});

async function preview(command: string, options: { timeoutSeconds?: number; cwd?: string; maxWriteBytes?: number } = {}): Promise<PreviewRun> {
  const run = await previewCommand({
    command,
    cwd: options.cwd ?? ws.root,
    root: ws.root,
    timeoutSeconds: options.timeoutSeconds ?? 60,
    ...(options.maxWriteBytes !== undefined ? { limits: { maxWriteBytes: options.maxWriteBytes } } : {}),
  });
  runs.push(run);
  return run;
}

/** Runs the preview and asserts the workspace and the outside folder are exactly as before. */
async function untouched(command: string, options: Parameters<typeof preview>[1] = {}): Promise<PreviewRun> {
  const before = folderFingerprint(ws.root);
  const outsideBefore = folderFingerprint(outside);
  const run = await preview(command, options);
  assert.equal(folderFingerprint(ws.root), before, `the workspace changed after previewing: ${command}`);
  assert.equal(folderFingerprint(outside), outsideBefore, `the folder outside changed after previewing: ${command}`);
  return run;
}

const paths = (files: readonly { path: string }[]) => files.map((f) => f.path);

describe('command preview', () => {
  it('reports exactly what the command created, changed and deleted, with patches, and touches nothing', async () => {
    const run = await untouched(
      'mkdir -p out && echo built > out/a.txt && echo "export const c = 3;" >> src/app.ts && rm gone.txt && printf "\\0\\377" > data.bin && chmod +x README.md && echo ok',
    );
    const r = run.result;
    assert.equal(r.ran, true);
    assert.equal(r.exitCode, 0);
    assert.equal(r.output.trim(), 'ok');
    assert.deepEqual(paths(r.created), ['out/a.txt']);
    assert.deepEqual(paths(r.changed), ['README.md', 'data.bin', 'src/app.ts']);
    assert.deepEqual(paths(r.deleted), ['gone.txt']);
    const app = r.changed.find((f) => f.path === 'src/app.ts')!;
    assert.match(app.patch ?? '', /\+export const c = 3;/);
    assert.equal(app.added, 1);
    assert.equal(app.removed, 0);
    assert.equal(r.changed.find((f) => f.path === 'data.bin')!.binary, true);
    assert.equal(r.changed.find((f) => f.path === 'README.md')!.after?.kind, 'exec');
    assert.deepEqual(r.notPreviewable, []);
    // The diff editor's two sides.
    assert.equal(readFileSync(run.sides('src/app.ts').before, 'utf8'), 'export const a = 1;\nexport const b = 2;\n');
    assert.match(readFileSync(run.sides('src/app.ts').after, 'utf8'), /const c = 3/);
    assert.equal(readFileSync(run.sides('out/a.txt').before, 'utf8'), '');
  });

  it('a command that changes nothing reports nothing', async () => {
    const run = await untouched('cat README.md src/app.ts > /dev/null; ls -R . > /dev/null');
    assert.deepEqual([run.result.created, run.result.changed, run.result.deleted], [[], [], []]);
    assert.deepEqual(run.result.notPreviewable, []);
  });

  it('writes through links, `..`, absolute paths and hard links never reach the real files', async () => {
    const run = await untouched(
      [
        'echo pwned > escape/secret.txt',
        'echo pwned > escape/new.txt',
        `echo inward > ${ws.root}/inward/via-absolute-link.ts`,
        `echo abs >> ${ws.root}/README.md`,
        'echo hard >> hard-link.md',
        'echo rel > readme-link',
        'cd .. && echo up > up.txt',
        `cd ${ws.root}/src/../.. && echo up2 > up2.txt`,
        `echo "/proc" > /proc/self/root${ws.root}/proc.txt`,
        'true',
      ].join('; '),
    );
    const r = run.result;
    assert.deepEqual(paths(r.created), ['proc.txt', 'src/via-absolute-link.ts']);
    assert.deepEqual(paths(r.changed), ['README.md', 'hard-link.md']);
    const reasons = r.notPreviewable.filter((reason) => reason.code === 'outside-write');
    assert.ok(
      reasons.some((reason) => /escape\/secret.txt: Read-only file system/.test(reason.detail)),
      JSON.stringify(reasons),
    );
    // The workspace is in /tmp here, so `cd ..` lands in the preview's own /tmp.
    assert.ok(
      reasons.some((reason) => /\/tmp\/up\.txt/.test(reason.detail)),
      JSON.stringify(reasons),
    );
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'outside\n');
  });

  it('rm -rf of the workspace deletes only the copy', async () => {
    const run = await untouched(`rm -rf ./* ./.[!.]* ; rm -rf ${ws.root}; find ${ws.root} | wc -l`);
    assert.deepEqual(
      paths(run.result.deleted).sort(),
      ['README.md', 'data.bin', 'escape', 'gone.txt', 'hard-link.md', 'inward', 'readme-link', 'src/app.ts'].sort(),
    );
  });

  it('writes to $HOME fail and are named; writes to /tmp are thrown away and named', async () => {
    const name = `smith-preview-home-${process.pid}-${Date.now()}`;
    const run = await untouched(
      `echo x > ~/${name}; echo t > /tmp/${name}; mkdir -p /var/tmp/${name}-d && echo v > /var/tmp/${name}-d/f; echo s > /dev/shm/${name}; true`,
    );
    assert.equal(existsSync(join(homedir(), name)), false);
    assert.equal(existsSync(join(tmpdir(), name)), false);
    assert.equal(existsSync(`/tmp/${name}`), false);
    assert.equal(existsSync(`/var/tmp/${name}-d`), false);
    assert.equal(existsSync(`/dev/shm/${name}`), false);
    assert.deepEqual(run.result.outsideWrites, [`/dev/shm/${name}`, `/tmp/${name}`, `/var/tmp/${name}-d/f`]);
    const reasons = run.result.notPreviewable.filter((r) => r.code === 'outside-write');
    assert.ok(
      reasons.some((r) => r.detail.includes(name) && /Read-only file system/.test(r.detail)),
      JSON.stringify(reasons),
    );
    assert.ok(reasons.some((r) => r.detail.includes(`/tmp/${name}`)));
  });

  it('a background daemon is ended with the preview and never writes to the workspace', async () => {
    const before = folderFingerprint(ws.root);
    const run = await untouched('(setsid nohup sh -c "while true; do echo tick >> daemon.log; sleep 0.05; done" > /dev/null 2>&1 &) ; sleep 0.5; echo started');
    assert.deepEqual(paths(run.result.created), ['daemon.log']);
    assert.equal(run.result.timedOut, false);
    // Long enough for a survivor to write many times.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(folderFingerprint(ws.root), before);
    assert.equal(existsSync(join(ws.root, 'daemon.log')), false);
    assert.deepEqual(survivors('daemon.log'), []);
  });

  it('an endless command is stopped at the time limit with everything it started', async () => {
    const run = await untouched('echo begin; sleep 1000 & while true; do echo x > loop.txt; sleep 0.1; done', { timeoutSeconds: 2 });
    assert.equal(run.result.timedOut, true);
    assert.ok(run.result.notPreviewable.some((r) => r.code === 'timed-out'));
    assert.deepEqual(paths(run.result.created), ['loop.txt']);
    assert.deepEqual(survivors('sleep 1000'), []);
  });

  it('huge output is bounded', async () => {
    const run = await untouched('yes "a line of output" | head -c 30000000; echo; echo the-end');
    assert.equal(run.result.outputTruncated, true);
    assert.ok(run.result.output.length < 200_000, `output kept: ${run.result.output.length}`);
    assert.match(run.result.output, /the-end/);
  });

  it('a command that fills the disk is stopped and named', async () => {
    const run = await untouched('dd if=/dev/zero of=big.bin bs=1M count=400 2>&1; sync; sleep 5', { maxWriteBytes: 20 * 1024 * 1024 });
    assert.ok(
      run.result.notPreviewable.some((r) => r.code === 'too-large'),
      JSON.stringify(run.result.notPreviewable),
    );
    assert.equal(run.result.timedOut, false);
  });

  it('no network: a command that needs it fails and the preview says so', async () => {
    const run = await untouched(
      "curl --max-time 10 http://example.com/ -o page.html; node -e \"require('node:http').get('http://1.1.1.1').on('error', (e) => { console.log(e.code); process.exit(3) })\"",
    );
    assert.ok(
      run.result.notPreviewable.some((r) => r.code === 'network'),
      JSON.stringify(run.result),
    );
    assert.match(run.result.output, /ENETUNREACH|Could not resolve host/);
  });

  for (const [command, named] of [
    ['git push origin main', /git push/],
    ['touch ran && npm publish', /publish/],
    ['sudo env FOO=1 yarn npm publish', /publish/],
    ['bash -c "curl -X POST https://example.com/api"', /curl -X POST/],
    ['curl -d a=1 https://example.com', /curl sends data/],
    ['cd .. && ssh host "rm -rf /"', /ssh/],
    ['git -C sub -c user.name=x push --force', /git push/],
    ['docker push image:tag', /container registry/],
  ] as const) {
    it(`not previewable, not run: ${command}`, async () => {
      const run = await untouched(command);
      assert.equal(run.result.ran, false);
      assert.ok(
        run.result.notPreviewable.some((r) => r.code === 'remote-effect' && named.test(r.detail)),
        JSON.stringify(run.result.notPreviewable),
      );
    });
  }

  it('a workspace under a folder given as cwd: the command runs in it, paths stay relative to the workspace', async () => {
    const run = await untouched('echo x > here.txt && pwd', { cwd: join(ws.root, 'src') });
    assert.deepEqual(paths(run.result.created), ['src/here.txt']);
    assert.equal(run.result.output.trim(), join(ws.root, 'src'));
  });

  it('without bubblewrap nothing runs and the reason is given', async () => {
    const marker = join(outside, 'ran');
    const run = await previewCommand({ command: `touch ${marker}`, cwd: ws.root, root: ws.root, sandbox: { reason: 'bubblewrap is not installed' } });
    assert.equal(run.result.ran, false);
    assert.equal(run.result.unavailable, 'bubblewrap is not installed');
    assert.equal(existsSync(marker), false);
  });

  it('the scratch folder is removed when the preview is disposed', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'smith-preview-scratch-'));
    try {
      const run = await previewCommand({ command: 'echo a > a', cwd: ws.root, root: ws.root, scratchParent: parent });
      assert.equal(readdirSync(parent).length, 1);
      run.dispose();
      assert.deepEqual(readdirSync(parent), []);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

/** Processes whose command line holds `text` (Linux /proc). */
function survivors(text: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').includes(text)) found.push(Number(name));
    } catch {}
  }
  return found;
}
