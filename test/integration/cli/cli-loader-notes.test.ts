// A checkout chooses its file names, so the notes Smith prints about its files (a mode file it
// could not use, a rules file linked out of the workspace) must not carry terminal escapes: a name
// may not set the clipboard (OSC 52), clear the screen or retitle the window.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

const ESCAPES = '\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b]0;owned\x07\x9b31m';

describe('smith CLI: notes about workspace files print no terminal escapes', () => {
  const fx = useAgentFixture();

  test('a broken mode file and an outside rules link named with escapes are named without them', async () => {
    fx.ws.write(`.smith/modes/bad${ESCAPES}.yaml`, 'slug: [unclosed\n');
    fx.ws.write('.clinerules/ok.md', 'Use tabs.\n');
    symlinkSync('/etc/hostname', join(fx.ws.root, `.clinerules/out${ESCAPES}.md`));
    fx.server.enqueue({ text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' });
    const run = await runCli({ args: [...fx.cliArgs(), '--trust-workspace', 'Go'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Mode file .*bad.*\.yaml/, 'the mode file is still named');
    assert.match(run.stderr, /out.*\.md/, 'the rules link is still named');
    assert.doesNotMatch(run.stderr, /[\x1b\x07\x9b]/, 'no escape or bell reached the terminal');
  });
});
