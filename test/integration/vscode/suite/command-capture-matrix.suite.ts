// What the model gets back from execute_command in the real workbench, shell by shell: bash, zsh
// with its default options, zsh with an oh-my-zsh-style theme, fish, sh (no shell integration:
// the child-process fallback) and bash with shell integration turned off in the settings. Every
// case runs the real tool through TerminalProcessPort and compares the whole result text.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { ProcessPort } from '../../../../src/core/ports';
import { CommandSessions } from '../../../../src/core/process/command-sessions';
import { APPROVE_ALL_POLICY } from '../../../../src/core/log/approval-policy';
import { createExecuteCommandTool } from '../../../../src/core/tools/execute-command';
import { TerminalProcessPort, type ProcessBackend, type TerminalRunningProcess } from '../../../../src/host/vscode/terminal-process-port';
import { ToolHarness } from '../../../helpers/tool-harness';

const cwd = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const TERMINAL_NAME = 'Smith matrix';
const LABEL = 'Output (stdout and stderr merged in the order printed)';

// An oh-my-zsh-style theme (its default, robbyrussell, with OMZ's title hooks): prompt
// substitution, colours, a status-dependent arrow, and precmd/preexec hooks that set the window
// title (they print into the stream around each command).
const OMZ_STYLE_ZSHRC = [
  'autoload -U colors && colors',
  'autoload -U add-zsh-hook',
  'setopt prompt_subst auto_cd',
  "PROMPT='%(?:%{$fg_bold[green]%}%1{➜%} :%{$fg_bold[red]%}%1{➜%} )%{$fg[cyan]%}%c%{$reset_color%} '",
  'omz_title_precmd() { print -Pn "\\e]2;%n@%m: %~\\a"; print -Pn "\\e]1;%15<..<%~%<<\\a" }',
  'omz_title_preexec() { print -n "\\e]2;${1//[^[:print:]]/}\\a" }',
  'add-zsh-hook precmd omz_title_precmd',
  'add-zsh-hook preexec omz_title_preexec',
  "alias ll='ls -l'",
  '',
].join('\n');

interface ShellSetup {
  readonly title: string;
  readonly shellPath: string;
  readonly backend: ProcessBackend;
  /** Extra environment of the terminal (a ZDOTDIR with the user's zsh configuration). */
  readonly env?: Record<string, string>;
  readonly integrationOff?: boolean;
  /** How long a new terminal may take to report shell integration before the fallback runs the command. */
  readonly integrationTimeoutMs: number;
  /**
   * The output of a command line wider than the terminal is lost (the exit code is not): VS Code
   * cannot verify the command line fish reports and reads it from the wrapped terminal buffer
   * instead (docs/panel.md, Known limits).
   */
  readonly losesOutputOfWrappedLines?: boolean;
}

const zdotDirs: string[] = [];
function zdotDir(zshrc: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'smith-zdotdir-'));
  writeFileSync(join(dir, '.zshrc'), zshrc);
  zdotDirs.push(dir);
  return dir;
}

function requireShell(path: string): string {
  assert.ok(existsSync(path), `${path} is missing: node scripts/ensure-test-deps.mjs installs it`);
  return path;
}

const setups: ShellSetup[] = [
  // A busy machine may take seconds to start a shell; sh never reports integration, so its wait is the cost of the fallback.
  { title: 'bash', shellPath: '/bin/bash', backend: 'terminal', integrationTimeoutMs: 20_000 },
  { title: 'zsh with its default options', shellPath: '/usr/bin/zsh', backend: 'terminal', env: { ZDOTDIR: zdotDir('') }, integrationTimeoutMs: 20_000 },
  {
    title: 'zsh with an oh-my-zsh-style theme',
    shellPath: '/usr/bin/zsh',
    backend: 'terminal',
    env: { ZDOTDIR: zdotDir(OMZ_STYLE_ZSHRC) },
    integrationTimeoutMs: 20_000,
  },
  { title: 'fish', shellPath: '/usr/bin/fish', backend: 'terminal', integrationTimeoutMs: 20_000, losesOutputOfWrappedLines: true },
  { title: 'sh, which has no shell integration', shellPath: '/bin/sh', backend: 'child-process', integrationTimeoutMs: 2000 },
  { title: 'bash with shell integration turned off', shellPath: '/bin/bash', backend: 'child-process', integrationOff: true, integrationTimeoutMs: 20_000 },
];

/** One command and the exact result text the model must get (the part after the status line). */
interface Case {
  readonly title: string;
  readonly command: string;
  readonly exitCode: number;
  /** The output under the label; a function for outputs checked by shape (the cut one). */
  readonly output: string | ((output: string, label: string) => void);
  /** Sent behind the directory change, the command line is wider than the terminal. */
  readonly wraps?: boolean;
}

const thousands = (n: number) => n.toLocaleString('en-US');

const cases: Case[] = [
  { title: 'multi-line output', command: "printf 'one\\ntwo\\nthree\\n'", exitCode: 0, output: 'one\ntwo\nthree' },
  {
    title: 'commas, quotes and shell special characters',
    command: `echo 'a,b;c "q" $HOME \\ | & > <' ; printf '%s\\n' '*?[x]{y}'`,
    exitCode: 0,
    output: 'a,b;c "q" $HOME \\ | & > <\n*?[x]{y}',
    wraps: true,
  },
  { title: 'unicode', command: "echo 'héllo wörld ✓ 日本語 😀'", exitCode: 0, output: 'héllo wörld ✓ 日本語 😀' },
  { title: 'no trailing newline', command: "printf 'no newline'", exitCode: 0, output: 'no newline' },
  { title: 'a non-zero exit code', command: "echo failing; sh -c 'exit 3'", exitCode: 3, output: 'failing' },
  {
    title: 'stderr interleaved with stdout in the order printed',
    command: "sh -c 'echo out1; echo err1 >&2; echo out2; echo err2 >&2; echo out3'",
    exitCode: 0,
    output: 'out1\nerr1\nout2\nerr2\nout3',
  },
  {
    title: '5,000 lines: head and tail kept, with a note saying what was cut',
    command: 'seq 1 5000',
    exitCode: 0,
    output: (output, label) => {
      assert.match(label, /too long: the middle was cut/);
      const lines = output.split('\n');
      assert.deepEqual(
        lines.slice(0, 100),
        Array.from({ length: 100 }, (_, i) => String(i + 1)),
      );
      assert.deepEqual(
        lines.slice(-300),
        Array.from({ length: 300 }, (_, i) => String(4701 + i)),
      );
      assert.match(lines[100]!, new RegExp(`^\\[\\.\\.\\. ${thousands(4600)} lines \\([\\d,]+ characters\\) omitted \\.\\.\\.\\]$`));
      assert.equal(lines.length, 401);
    },
  },
  {
    title: 'ANSI colours are stripped, a progress line keeps its last state',
    command: "env printf '\\033[1;31mred\\033[0m plain\\nprogress  10%%\\rprogress 100%%\\n'",
    exitCode: 0,
    output: 'red plain\nprogress 100%',
  },
  { title: 'a line printed after a delay', command: 'echo first; sleep 1; echo second', exitCode: 0, output: 'first\nsecond' },
  { title: 'cd into a folder for one command', command: 'cd sub && pwd', exitCode: 0, output: join(cwd, 'sub') },
  { title: 'the next command, at once, runs in the workspace again', command: 'pwd', exitCode: 0, output: cwd },
  { title: 'and the one after it too', command: 'echo again; pwd', exitCode: 0, output: `again\n${cwd}` },
];

describe('Command capture matrix', function () {
  this.timeout(120_000);
  const ports: TerminalProcessPort[] = [];

  before(() => mkdirSync(join(cwd, 'sub'), { recursive: true }));
  after(() => {
    for (const port of ports) port.dispose();
    for (const terminal of vscode.window.terminals) if (terminal.name === TERMINAL_NAME) terminal.dispose();
    for (const dir of zdotDirs) rmSync(dir, { recursive: true, force: true });
  });

  for (const setup of setups) {
    describe(setup.title, () => {
      const sessions = new CommandSessions();
      const tool = createExecuteCommandTool(sessions);
      const harness = new ToolHarness(cwd);
      harness.policy = APPROVE_ALL_POLICY;
      const started: TerminalRunningProcess[] = [];
      let terminalsAfterFirst = -1;

      before(async () => {
        requireShell(setup.shellPath);
        if (setup.integrationOff) {
          await vscode.workspace.getConfiguration('terminal.integrated').update('shellIntegration.enabled', false, vscode.ConfigurationTarget.Global);
        }
        const port = new TerminalProcessPort({
          shellPath: setup.shellPath,
          terminalName: TERMINAL_NAME,
          shellIntegrationTimeoutMs: setup.integrationTimeoutMs,
        });
        ports.push(port);
        const processes: ProcessPort = {
          start: (command, options) => {
            const running = port.start(command, { ...options, ...(setup.env ? { env: setup.env } : {}) });
            started.push(running);
            return running;
          },
        };
        harness.processes = processes;
      });
      after(async () => {
        await sessions.killAll();
        if (setup.integrationOff) {
          await vscode.workspace.getConfiguration('terminal.integrated').update('shellIntegration.enabled', undefined, vscode.ConfigurationTarget.Global);
        }
      });

      for (const testCase of cases) {
        it(testCase.title, async function () {
          if (setup.losesOutputOfWrappedLines && testCase.wraps) this.skip();
          const outcome = await harness.run(tool, { command: testCase.command, requires_approval: 'false' });
          assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
          const text = outcome.kind === 'result' ? outcome.output : '';
          assert.equal(await started.at(-1)!.backend, setup.backend);
          const [status, labelLine, ...rest] = text.split('\n');
          assert.equal(status, `Exit code: ${testCase.exitCode}`, text);
          if (typeof testCase.output === 'string') {
            assert.equal(text, `Exit code: ${testCase.exitCode}\n${LABEL}:\n${testCase.output}`);
          } else {
            assert.ok(labelLine!.startsWith('Output ('), text.slice(0, 300));
            testCase.output(rest.join('\n'), labelLine!);
          }
          if (setup.backend !== 'terminal') return;
          // Every command after the first reuses the same terminal.
          const terminals = vscode.window.terminals.filter((t) => t.name === TERMINAL_NAME && !t.exitStatus).length;
          if (terminalsAfterFirst < 0) terminalsAfterFirst = terminals;
          else assert.equal(terminals, terminalsAfterFirst, 'a new terminal was opened');
        });
      }
    });
  }
});
