// On a terminal, smith asks once whether to trust the allow rules and hooks of a workspace's
// .smith/settings.json; the answer is remembered for later runs, with or without a terminal.
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { startCliOnPty } from '../../helpers/cli-pty.js';
import { runCli } from '../../helpers/cli-runner.js';

const done = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

describe('smith CLI: trusting the workspace settings file', () => {
  const fx = useAgentFixture();

  test('asked on a terminal; yes runs the hooks now and in later runs without asking', async () => {
    fx.ws.write(
      '.smith/settings.json',
      JSON.stringify({
        permissions: { allow: ['Bash(echo trusted)'] },
        hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'touch "$SMITH_PROJECT_DIR/hook-ran"' }] }] },
      }),
    );
    const marker = join(fx.ws.root, 'hook-ran');
    fx.server.enqueue(done, done);
    const cli = startCliOnPty([...fx.cliArgs(), 'Do it']);
    try {
      await cli.waitFor(/Trust them\? \[y\]es \/ \[N\]o: /);
      assert.equal(existsSync(marker), false, 'the hook ran before the answer');
      assert.match(cli.output, /wants to allow and run:[\s\S]*allow Bash\(echo trusted\)[\s\S]*hook UserPromptSubmit: touch/);
      await cli.type('y');
      assert.equal(await cli.exited, 0, cli.output);
    } finally {
      cli.kill();
    }
    assert.ok(existsSync(marker), cli.output);
    assert.doesNotMatch(cli.output, /not used: this workspace is not trusted/);

    rmSync(marker);
    const again = await runCli({ args: [...fx.cliArgs(), 'Do it'] });
    assert.equal(again.code, 0, again.stderr);
    assert.ok(existsSync(marker), 'the remembered answer did not apply');
    assert.doesNotMatch(again.stderr, /Trust them\?|not trusted/);
  });
});
