// Commands run by the VS Code host: in a terminal through shell integration (output stream and
// exit code), and through the child-process fallback when integration is unavailable.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { RunningProcess } from '../../../../src/core/ports';
import { TerminalProcessPort, type TerminalRunningProcess } from '../../../../src/host/vscode/terminal-process-port';
import { eventually, isPidAlive } from '../../../helpers/pid-liveness';
import { findRipgrep } from '../../../../src/host/vscode/ripgrep-path';

const cwd = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const bash = ['/bin/bash', '/usr/bin/bash'].find((path) => existsSync(path));

async function collect(running: RunningProcess): Promise<{ output: string; exitCode: number | null; signal?: string }> {
  const chunks: string[] = [];
  running.onOutput((chunk) => chunks.push(chunk));
  const exit = await running.exited;
  return { output: chunks.join(''), ...exit };
}

describe('Commands in the VS Code host', function () {
  this.timeout(120_000);
  const ports: TerminalProcessPort[] = [];

  after(() => {
    for (const port of ports) port.dispose();
    for (const terminal of vscode.window.terminals) if (terminal.name === 'Smith test') terminal.dispose();
  });

  it('runs a command in a terminal with shell integration and captures output and exit code', async function () {
    if (!bash) this.skip();
    const port = new TerminalProcessPort({ shellPath: bash, terminalName: 'Smith test', shellIntegrationTimeoutMs: 15_000 });
    ports.push(port);
    const running = port.start("printf 'hello from the terminal\\n'; pwd; (exit 3)", { cwd });
    assert.equal(await running.backend, 'terminal');
    const result = await collect(running);
    assert.match(result.output, /hello from the terminal/);
    assert.match(result.output, new RegExp(cwd.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.equal(result.exitCode, 3);

    // The idle terminal is reused for the next command in the same folder.
    const terminalsBefore = vscode.window.terminals.filter((t) => t.name === 'Smith test').length;
    const second = port.start('echo second', { cwd });
    assert.equal(await second.backend, 'terminal');
    const again = await collect(second);
    assert.match(again.output, /second/);
    assert.equal(again.exitCode, 0);
    assert.equal(vscode.window.terminals.filter((t) => t.name === 'Smith test').length, terminalsBefore);
  });

  it('two tasks never share a terminal: each reuses only its own idle one', async function () {
    if (!bash) this.skip();
    const port = new TerminalProcessPort({ shellPath: bash, terminalName: 'Smith test', shellIntegrationTimeoutMs: 15_000 });
    ports.push(port);
    const taskA = port.forTask();
    const taskB = port.forTask();
    // The shell's pid names the terminal a command ran in.
    const shellOf = async (running: TerminalRunningProcess) => {
      assert.equal(await running.backend, 'terminal');
      const result = await collect(running);
      assert.equal(result.exitCode, 0, result.output);
      const pid = /shell=(\d+)/.exec(result.output)?.[1];
      assert.ok(pid, result.output);
      return pid;
    };
    const count = () => vscode.window.terminals.filter((t) => t.name === 'Smith test').length;
    const before = count();
    const a1 = await shellOf(taskA.start('echo shell=$$; export LEFT_BY_A=1', { cwd }));
    // A's terminal is idle now; B gets a terminal of its own, not A's shell with A's variable in it.
    const b1 = await shellOf(taskB.start('echo shell=$$ left=${LEFT_BY_A:-none}', { cwd }));
    assert.notEqual(b1, a1);
    assert.equal(count(), before + 2);
    const b2 = taskB.start('echo shell=$$ left=${LEFT_BY_A:-none}', { cwd });
    const b2Output: string[] = [];
    b2.onOutput((chunk) => b2Output.push(chunk));
    assert.equal(await shellOf(b2), b1, 'B reuses its own idle terminal');
    assert.match(b2Output.join(''), /left=none/);
    assert.equal(await shellOf(taskA.start('echo shell=$$', { cwd })), a1, 'A reuses its own idle terminal');
    // Commands started on the port itself (no task) do not take a task's terminal either.
    const untasked = await shellOf(port.start('echo shell=$$', { cwd }));
    assert.ok(untasked !== a1 && untasked !== b1);
    assert.equal(count(), before + 3);
  });

  it('gives a new terminal the marker the caller logged; a command in a reused terminal carries the one that opened it', async function () {
    if (!bash) this.skip();
    const whole = new TerminalProcessPort({ shellPath: bash, terminalName: 'Smith test', shellIntegrationTimeoutMs: 15_000 });
    ports.push(whole);
    const port = whole.forTask();
    const markerOf = async (running: TerminalRunningProcess) => {
      assert.equal(await running.backend, 'terminal');
      const result = await collect(running);
      return /id=(\S*)/.exec(result.output)?.[1]?.split(':');
    };
    const first = port.start('echo id=$SMITH_COMMAND_ID', { cwd, marker: 'first-logged-marker' });
    assert.ok((await markerOf(first))?.includes('first-logged-marker'));
    assert.equal(first.marker, 'first-logged-marker');
    const second = port.start('echo id=$SMITH_COMMAND_ID', { cwd, marker: 'second-logged-marker' });
    assert.ok((await markerOf(second))?.includes('first-logged-marker'), 'the reused terminal keeps its own marker');
    assert.equal(second.marker, 'first-logged-marker');
    const fallback = new TerminalProcessPort({ forceFallback: true });
    ports.push(fallback);
    const child = fallback.start('echo id=$SMITH_COMMAND_ID', { cwd, marker: 'fallback-logged-marker' });
    const result = await collect(child);
    assert.ok(/id=(\S*)/.exec(result.output)?.[1]?.split(':').includes('fallback-logged-marker'), result.output);
  });

  it('kills a running terminal command', async function () {
    if (!bash) this.skip();
    const port = new TerminalProcessPort({ shellPath: bash, terminalName: 'Smith test', shellIntegrationTimeoutMs: 15_000, killGraceMs: 1000 });
    ports.push(port);
    const running = port.start('echo started; sleep 60', { cwd });
    assert.equal(await running.backend, 'terminal');
    const output: string[] = [];
    running.onOutput((chunk) => output.push(chunk));
    const deadline = Date.now() + 10_000;
    while (!output.join('').includes('started') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await running.kill();
    const exit = await running.exited;
    assert.ok(Date.now() - started < 10_000, 'kill took too long');
    assert.notEqual(exit.exitCode, 0);
  });

  it('stopping a terminal command also ends what it started in a new session', async function () {
    if (!bash) this.skip();
    const port = new TerminalProcessPort({ shellPath: bash, terminalName: 'Smith test', shellIntegrationTimeoutMs: 15_000, killGraceMs: 1000 });
    ports.push(port);
    const pidFile = join(mkdtempSync(join(tmpdir(), 'smith-escaped-')), 'pid');
    const running = port.start(`setsid sh -c 'echo $$ > ${pidFile}; exec sleep 600' & nohup sleep 601 >/dev/null 2>&1 & echo started; sleep 60`, { cwd });
    assert.equal(await running.backend, 'terminal');
    const output: string[] = [];
    running.onOutput((chunk) => output.push(chunk));
    assert.ok(
      await eventually(() => output.join('').includes('started') && existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 30_000),
      'the command never started',
    );
    const escaped = Number(readFileSync(pidFile, 'utf8').trim());
    assert.ok(isPidAlive(escaped), 'the setsid process runs before the kill');
    await running.kill();
    assert.ok(await eventually(() => !isPidAlive(escaped), 30_000), `process ${escaped} outlived the kill`);
    assert.deepEqual(running.killReport, { checked: true, survivors: [] });
  });

  it('falls back to a child process and still returns output and exit code', async () => {
    const port = new TerminalProcessPort({ forceFallback: true });
    ports.push(port);
    const running = port.start('echo out; echo err 1>&2; exit 4', { cwd });
    assert.equal(await running.backend, 'child-process');
    const result = await collect(running);
    assert.match(result.output, /out/);
    assert.match(result.output, /err/);
    assert.equal(result.exitCode, 4);
  });

  it('falls back when a terminal never reports shell integration', async () => {
    // /bin/sh has no shell integration, so the wait times out and the fallback runs the command.
    const port = new TerminalProcessPort({ shellPath: '/bin/sh', terminalName: 'Smith test', shellIntegrationTimeoutMs: 1500 });
    ports.push(port);
    const running = port.start('echo via fallback; exit 2', { cwd });
    assert.equal(await running.backend, 'child-process');
    const result = await collect(running);
    assert.match(result.output, /via fallback/);
    assert.equal(result.exitCode, 2);
  });

  it('finds a ripgrep binary (the one VS Code ships, or rg on PATH)', async () => {
    const rg = await findRipgrep();
    assert.ok(rg, 'no ripgrep found');
    assert.ok(existsSync(rg));
  });
});
