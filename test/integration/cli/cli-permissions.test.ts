// --allow / --ask / --deny rules through the CLI: deny wins over --yes, allow lets a command run
// without asking, ask overrides --yes.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

const command = (line: string) => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` });
const done = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

describe('smith CLI: permission rules', () => {
  const fx = useAgentFixture();

  test('a deny rule stops a command hidden after another, even with --yes', async () => {
    fx.ws.write('keep.txt', 'precious');
    fx.server.enqueue(command('echo hi; rm -f keep.txt'), done);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--deny', 'Bash(rm:*)', 'Tidy up'] });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(existsSync(join(fx.ws.root, 'keep.txt')));
    assert.match(lastUserText(fx.server.requestAt(1)), /The user's permission rule Bash\(rm:\*\) \(--deny\) denies this call, so it was not run/);
  });

  test('an allow rule runs a command unasked; an ask rule asks even with --yes', async () => {
    fx.server.enqueue(command('echo allowed-output'), { text: '<write_to_file>\n<path>src/a.ts</path>\n<content>\nx\n</content>\n</write_to_file>' }, done);
    // stdin is not a terminal and carries no answers: anything asked is rejected.
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--allow', 'Bash(echo:*)', '--ask', 'Edit(src/**)', 'Write a'], stdin: '' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(lastUserText(fx.server.requestAt(1)), /allowed-output/);
    assert.match(run.stderr, /The permission rule Edit\(src\/\*\*\) asks for this call\./);
    assert.equal(existsSync(join(fx.ws.root, 'src/a.ts')), false);
  });

  test('with --deny and --yes, a wrapped rm is denied and a line whose command is computed is refused, saying why', async () => {
    fx.ws.write('keep.txt', 'precious');
    fx.server.enqueue(
      command('sudo -n env FOO=1 nohup bash -c "eval \'/bin/rm -f keep.txt\'"'),
      command('$(printf rm) -f keep.txt'),
      command('echo still-fine'),
      done,
    );
    // stdin carries no answers: what is asked cannot be answered.
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--deny', 'Bash(rm:*)', 'Tidy up'], stdin: '', timeoutMs: 120_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(existsSync(join(fx.ws.root, 'keep.txt')));
    assert.match(
      lastUserText(fx.server.requestAt(1)),
      /permission rule Bash\(rm:\*\) \(--deny\) denies this call, so it was not run \(the line runs `\/bin\/rm -f keep\.txt` \(run by `sudo -n` → `env FOO=1` → `nohup` → `bash -c` → `eval`\)\)/,
    );
    const refused = lastUserText(fx.server.requestAt(2));
    assert.match(refused, /was not run/);
    assert.match(refused, /cannot be judged for sure: the command name of `"?\$\(printf rm\)"? -f keep\.txt` is computed/);
    assert.match(refused, /Bash\(rm:\*\) \(--deny\)/);
    assert.match(run.stderr, /This command line is asked because the line cannot be judged for sure/);
    assert.match(lastUserText(fx.server.requestAt(3)), /still-fine/, 'an ordinary command still runs under --yes');
  });

  test('a malformed rule is a usage error', async () => {
    const run = await runCli({ args: [...fx.cliArgs(), '--deny', 'Bash(rm', 'x'] });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--deny: "Bash\(rm" is not a permission rule/);
  });

  test("settings files: the user's rules apply; a workspace file's deny applies at once, its allow only when trusted", async () => {
    writeFileSync(join(fx.storage, 'settings.json'), '{ // the user\'s own\n "permissions": { "deny": ["Bash(rm:*)"] } }');
    fx.ws.write('.smith/settings.json', JSON.stringify({ permissions: { allow: ['Bash(echo:*)'], deny: ['Bash(curl:*)'], ask: ['Bash('] } }));
    fx.server.enqueue(command('echo from-untrusted'), command('curl http://example.com'), command('rm -f x'), done);
    const untrusted = await runCli({ args: [...fx.cliArgs(), 'Go'], stdin: '' });
    assert.equal(untrusted.code, 0, untrusted.stderr);
    assert.match(untrusted.stderr, /1 allow rule in .*\.smith\/settings\.json not used: this workspace is not trusted/);
    assert.match(untrusted.stderr, /permissions\.ask: "Bash\(" is not a permission rule/);
    assert.doesNotMatch(lastUserText(fx.server.requestAt(1)), /from-untrusted\n/, 'the echo was asked, and no one could answer');
    assert.match(lastUserText(fx.server.requestAt(2)), /permission rule Bash\(curl:\*\) \(\.smith\/settings\.json\) denies this call/);
    assert.match(lastUserText(fx.server.requestAt(3)), /permission rule Bash\(rm:\*\) \(.*settings\.json\) denies this call/);

    fx.server.requests.length = 0;
    fx.server.enqueue(command('echo from-trusted'), done);
    const trusted = await runCli({ args: [...fx.cliArgs(), '--trust-workspace', 'Go'], stdin: '' });
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.match(lastUserText(fx.server.requestAt(1)), /from-trusted/);
  });
});
