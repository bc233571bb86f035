// Custom agents in the CLI: the workspace's agent files are used once trusted (--trust-workspace,
// or a yes on a terminal), the user's ~/.claude/agents always; an editing agent's call is asked on
// the terminal naming the sub-agent, and --yes approves it as it approves the parent's.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { startCliOnPty } from '../../helpers/cli-pty.js';
import { conversationRouter } from '../../helpers/conversation-router.js';

const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
const delegate = (items: unknown[]) => ({ text: `<use_subagents>\n<prompts>${JSON.stringify(items)}</prompts>\n</use_subagents>` });
const writer = (name: string) => `---\nname: ${name}\ndescription: Writes one file.\ntools: Write\n---\nYou write files.\n`;

describe('smith CLI: custom agents', () => {
  const fx = useAgentFixture();
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'smith-home-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  test('with --trust-workspace and --yes, a workspace agent edits its declared file; the progress names it', async () => {
    fx.ws.write('.claude/agents/writer.md', writer('writer'));
    const router = conversationRouter({
      'Write the note': [delegate([{ prompt: 'Job W: write note.txt', agent: 'writer', paths: ['note.txt'] }]), done('Written.')],
      'Job W': [{ text: '<write_to_file>\n<path>note.txt</path>\n<content>\nhello\n</content>\n</write_to_file>' }, done('note.txt written.')],
    });
    fx.server.enqueue(...router.replies());
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--trust-workspace', 'Write the note'], env: { HOME: home } });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.ws.read('note.txt'), 'hello\n');
    assert.match(run.stderr, /▸ use_subagents 1 question: writer: Job W: write note\.txt/);
    assert.match(run.stderr, /^ {2}\[1\] started \(writer\): Job W: write note\.txt$/m);
    assert.match(run.stderr, /^ {2}\[1\] write_to_file note\.txt$/m);
  });

  test('an untrusted workspace’s agents are not used (a warning says so); the user’s own agents are', async () => {
    fx.ws.write('.smith/agents/repo.md', writer('repo'));
    mkdirSync(join(home, '.claude/agents'), { recursive: true });
    writeFileSync(join(home, '.claude/agents/mine.md'), writer('mine'));
    const router = conversationRouter({
      'Use agents': [
        delegate([{ prompt: 'Job R: x', agent: 'repo', paths: ['r.txt'] }]),
        delegate([{ prompt: 'Job M: write m.txt', agent: 'mine', paths: ['m.txt'] }]),
        done('Used.'),
      ],
      'Job M': [{ text: '<write_to_file>\n<path>m.txt</path>\n<content>\nmine\n</content>\n</write_to_file>' }, done('m.txt written.')],
    });
    fx.server.enqueue(...router.replies());
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Use agents'], env: { HOME: home } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /1 agent file of this workspace not used: it is not trusted \(--trust-workspace trusts it for this run\)/);
    assert.match(run.stderr, /there is no agent "repo"; the agents are mine/);
    assert.equal(existsSync(join(fx.ws.root, 'r.txt')), false);
    assert.equal(fx.ws.read('m.txt'), 'mine\n');
  });

  test("without --yes the sub-agent's edit is asked on the terminal, naming it; a no keeps the file away", async () => {
    mkdirSync(join(home, '.claude/agents'), { recursive: true });
    writeFileSync(join(home, '.claude/agents/mine.md'), writer('mine'));
    const router = conversationRouter({
      'Ask me': [delegate([{ prompt: 'Job A: write a.txt', agent: 'mine', paths: ['a.txt'] }]), done('Asked.')],
      'Job A': [{ text: '<write_to_file>\n<path>a.txt</path>\n<content>\nA\n</content>\n</write_to_file>' }, done('The user said no.')],
    });
    fx.server.enqueue(...router.replies());
    // Starting the sub-agent is a read (auto-approved with --auto-approve read); its edit is asked.
    const run = await runCli({ args: [...fx.cliArgs(), '--auto-approve', 'read', 'Ask me'], env: { HOME: home }, answers: ['n'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /\? \[sub-agent 1 mine\] .*a\.txt/);
    assert.equal(existsSync(join(fx.ws.root, 'a.txt')), false);
  });

  test('the orchestrator mode hands a sub-task to the code mode, which edits its declared file', async () => {
    const router = conversationRouter({
      'Orchestrate it': [delegate([{ prompt: 'Sub-task C: create c.txt', mode: 'code', paths: ['c.txt'] }]), done('C made c.txt.')],
      'Sub-task C': [{ text: '<write_to_file>\n<path>c.txt</path>\n<content>\nC\n</content>\n</write_to_file>' }, done('c.txt created.')],
    });
    fx.server.enqueue(...router.replies());
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--skill', 'orchestrator', '--output', 'json', 'Orchestrate it'], env: { HOME: home } });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.ws.read('c.txt'), 'C\n');
    assert.match(run.stderr, /^ {2}\[1\] started \(code\): Sub-task C: create c\.txt$/m);
    assert.equal((JSON.parse(run.stdout) as { result: string }).result, 'C made c.txt.');
  });

  test("on a terminal the workspace's agent files are asked about once; yes uses them now and in later runs", async () => {
    fx.ws.write('.claude/agents/writer.md', writer('writer'));
    const job = (name: string) => [delegate([{ prompt: `Job ${name}: write ${name}.txt`, agent: 'writer', paths: [`${name}.txt`] }]), done('Delegated.')];
    const router = conversationRouter({
      'First run': job('t1'),
      'Job t1': [{ text: '<write_to_file>\n<path>t1.txt</path>\n<content>\none\n</content>\n</write_to_file>' }, done('t1 written.')],
      'Second run': job('t2'),
      'Job t2': [{ text: '<write_to_file>\n<path>t2.txt</path>\n<content>\ntwo\n</content>\n</write_to_file>' }, done('t2 written.')],
    });
    fx.server.enqueue(...router.replies());
    const cli = startCliOnPty([...fx.cliArgs(), '--yes', 'First run'], { HOME: home });
    try {
      await cli.waitFor(/Use them\? \[y\]es \/ \[N\]o: /);
      assert.match(cli.output, /agent files define agents[\s\S]*writer\.md/);
      await cli.type('y');
      assert.equal(await cli.exited, 0, cli.output);
    } finally {
      cli.kill();
    }
    assert.equal(fx.ws.read('t1.txt'), 'one\n');
    const again = await runCli({ args: [...fx.cliArgs(), '--yes', 'Second run'], env: { HOME: home } });
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /Use them\?|not trusted/);
    assert.equal(fx.ws.read('t2.txt'), 'two\n');
  });
});
