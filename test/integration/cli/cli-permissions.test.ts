// --allow / --ask / --deny rules through the CLI: deny wins over --yes, allow lets a command run
// without asking, ask overrides --yes.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
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

  test('a malformed rule is a usage error', async () => {
    const run = await runCli({ args: [...fx.cliArgs(), '--deny', 'Bash(rm', 'x'] });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--deny: "Bash\(rm" is not a permission rule/);
  });
});
