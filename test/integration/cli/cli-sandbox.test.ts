// --sandbox for real: commands run under bubblewrap. Writes outside the workspace, the network and
// .smithignore'd files are out of reach; builds inside the workspace work; a timeout ends everything.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:http';
import { hostname, tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { createTempWorkspace } from '../../helpers/temp-workspace.js';
import { eventually } from '../../helpers/pid-liveness.js';

const command = (line: string, timeout?: number) => ({
  text: `<execute_command>\n<command>${line}</command>\n<requires_approval>false</requires_approval>${timeout ? `\n<timeout>${timeout}</timeout>` : ''}\n</execute_command>`,
});
const done = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };
const running = (pattern: string) =>
  execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .some((line) => line.includes(pattern));

describe('smith CLI: --sandbox', () => {
  const fx = useAgentFixture();

  test('the workspace is writable; outside it, the network and ignored files are not', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end('reached');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    fx.ws.write('.smithignore', 'secrets/\n');
    fx.ws.write('secrets/key.txt', 'TOP-SECRET');
    // Outside the workspace and outside /tmp (which is private to the sandbox): the repository's folder.
    const outside = join(process.cwd(), `.sandbox-escape-probe-${process.pid}`);
    fx.server.enqueue(
      command('echo built > out.txt && cat out.txt'),
      command(`echo x > ${outside}; echo exit=$?`),
      command(`node -e "fetch('${url}').then(() => console.log('NET-OK'), () => console.log('NET-FAILED'))"`),
      // A glob, so the command does not name the ignored path (that alone would make Smith ask).
      command('ls -A secre*/ | wc -l; cat secre*/*; echo exit=$?'),
      done,
    );
    try {
      const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--sandbox', '--max-iterations', '10', 'Build'] });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(existsSync(outside), false, 'nothing was written outside the workspace');
    } finally {
      server.close();
      rmSync(outside, { force: true });
    }
    assert.equal(fx.ws.read('out.txt'), 'built\n');
    assert.match(lastUserText(fx.server.requestAt(1)), /built/);
    // Read-only, or (when the repository itself is under /tmp, which is private to the sandbox) not there at all.
    assert.match(lastUserText(fx.server.requestAt(2)), /(Read-only file system|Directory nonexistent)[\s\S]*exit=[12]/);
    assert.match(lastUserText(fx.server.requestAt(3)), /NET-FAILED/);
    assert.equal(hits, 0);
    assert.doesNotMatch(lastUserText(fx.server.requestAt(4)), /TOP-SECRET/);
    assert.match(lastUserText(fx.server.requestAt(4)), /\n0\n[\s\S]*exit=1/);
  });

  test('--sandbox-allow-host: HTTP(S)_PROXY-aware tools reach the allowed host through the proxy, and nothing else', async (t) => {
    // The machine's own name resolves to this machine; a name that is not localhost goes through the proxy.
    const name = hostname();
    if (
      !(await lookup(name).then(
        () => true,
        () => false,
      ))
    )
      return t.skip(`${name} does not resolve here`);
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end('reached');
    });
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
    const port = (server.address() as AddressInfo).port;
    fx.server.enqueue(
      command(`curl -sS http://${name}:${port}/; echo; echo exit=$?`),
      command(`curl -sS http://not-allowed.example:${port}/; echo exit=$?`),
      command('curl -sS https://not-allowed.example/; echo exit=$?'),
      command(`curl -sS --noproxy '*' http://${name}:${port}/; echo exit=$?`),
      done,
    );
    try {
      const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--sandbox', '--sandbox-allow-host', name, 'Fetch'] });
      assert.equal(run.code, 0, run.stderr);
    } finally {
      server.close();
    }
    assert.match(lastUserText(fx.server.requestAt(1)), /reached\nexit=0/);
    assert.match(lastUserText(fx.server.requestAt(2)), /does not let commands reach not-allowed\.example: it is not one of the allowed hosts/);
    assert.match(lastUserText(fx.server.requestAt(3)), /CONNECT tunnel failed, response 403[\s\S]*exit=56/);
    // Around the proxy there is no way out: the sandbox has no network of its own.
    assert.match(lastUserText(fx.server.requestAt(4)), /exit=(6|7)\b/);
    assert.equal(hits, 1);
  });

  test('a host that is not a host name is a usage error; without bubblewrap commands are asked for, not auto-approved', async () => {
    const bad = await runCli({ args: [...fx.cliArgs(), '--sandbox', '--sandbox-allow-host', 'http://x.example/', 'Go'] });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--sandbox-allow-host: "http:\/\/x\.example\/" is not a host name, an IP address or \*\.domain/);

    fx.server.enqueue(command('echo ran > ran.txt'), done);
    // A PATH without bubblewrap (the shell is /bin/sh, found without PATH); stdin has no answers, so what is asked is refused.
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--sandbox', 'Go'], env: { PATH: '/nonexistent' }, stdin: '' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /Commands are not sandboxed: the command sandbox needs bubblewrap \(bwrap\), which is not installed \(Debian and Ubuntu: apt-get install bubblewrap.*\)\. Every command will be asked for; nothing approves one automatically/,
    );
    assert.equal(existsSync(join(fx.ws.root, 'ran.txt')), false);
    assert.match(lastUserText(fx.server.requestAt(1)), /denied|rejected|did not approve/i);
  });

  test('without bubblewrap, nothing approves a command: not --yes, an allow rule or a PreToolUse hook; the user is told once', async () => {
    const allowAll = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`;
    writeFileSync(
      join(fx.storage, 'settings.json'),
      JSON.stringify({
        permissions: { allow: ['Bash(echo:*)', 'Bash'] },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: allowAll }] }] },
      }),
    );
    fx.server.enqueue(command('echo one > one.txt'), command('echo two > two.txt'), done);
    const run = await runCli({
      args: [...fx.cliArgs(), '--yes', '--auto-approve', 'commands', '--sandbox', '--output', 'json', 'Go'],
      env: { PATH: '/nonexistent' },
      stdin: '',
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr.match(/Commands are not sandboxed/g)?.length, 1, run.stderr);
    assert.equal(existsSync(join(fx.ws.root, 'one.txt')), false);
    assert.equal(existsSync(join(fx.ws.root, 'two.txt')), false);
    const { taskId } = JSON.parse(run.stdout) as { taskId: string };
    const events = readFileSync(join(fx.storage, 'tasks', taskId, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; request?: { reason?: string } });
    assert.equal(events.filter((e) => e.type === 'tool_auto_approved').length, 0);
    const asked = events.filter((e) => e.type === 'approval_asked');
    assert.equal(asked.length, 2);
    for (const e of asked) assert.match(e.request?.reason ?? '', /^Not sandboxed: the command sandbox needs bubblewrap/);
  });

  test('a bubblewrap that cannot make a sandbox counts as none: commands are asked for, and the user is told why', async () => {
    const fake = mkdtempSync(join(tmpdir(), 'smith-fake-bwrap-'));
    try {
      writeFileSync(join(fake, 'bwrap'), '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n', { mode: 0o755 });
      fx.server.enqueue(command('echo ran > ran.txt'), done);
      const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--sandbox', 'Go'], env: { PATH: fake }, stdin: '' });
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stderr,
        /Commands are not sandboxed: bubblewrap \(.*bwrap\) cannot make a sandbox here \(bwrap: setting up uid map: Permission denied\)/,
      );
      assert.equal(existsSync(join(fx.ws.root, 'ran.txt')), false);
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });

  test('every folder of a multi-root workspace is writable to sandboxed commands, and nothing beside them', async () => {
    const extra = createTempWorkspace('smith-sandbox-extra-');
    const lib = join(extra.root, 'lib');
    mkdirSync(lib);
    try {
      fx.server.enqueue(command(`echo shared > ${lib}/from-sandbox.txt; echo exit=$?; echo x > ${extra.root}/beside.txt; echo exit=$?`), done);
      const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--sandbox', '--add-dir', lib, 'Write'] });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(readFileSync(join(lib, 'from-sandbox.txt'), 'utf8'), 'shared\n');
      // Beside it, under the private /tmp, the write lands in the sandbox's own /tmp, gone afterwards.
      assert.equal(existsSync(join(extra.root, 'beside.txt')), false);
      assert.match(lastUserText(fx.server.requestAt(1)), /^exit=0$/m);
    } finally {
      extra.dispose();
    }
  });

  test('a timeout ends the whole sandboxed tree', async () => {
    fx.server.enqueue(command('sleep 4321 & sleep 4322', 2), done);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--sandbox', 'Wait'] });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(await eventually(() => !running('sleep 4321') && !running('sleep 4322')), 'a sandboxed process outlived the timeout');
  });
});
