// Rules files of other agents, conditional rules and nested AGENTS.md reach the system prompt
// through the CLI as the task touches the files they are about.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { systemPromptOf, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

describe('smith CLI: rules files', () => {
  const fx = useAgentFixture();

  test('a conditional rule and a nested AGENTS.md join the prompt once the task reads a matching file', async () => {
    fx.ws.write('CLAUDE.md', 'Answer tersely.');
    fx.ws.write('.cursor/rules/react.mdc', '---\nglobs: "**/*.tsx"\n---\nPrefer function components.');
    fx.ws.write('web/AGENTS.md', 'The web app uses pnpm.');
    fx.ws.write('web/app.tsx', 'export const App = () => null;\n');
    fx.server.enqueue({ text: '<read_file>\n<path>web/app.tsx</path>\n</read_file>' }, { text: '<attempt_completion>\n<result>Read it.</result>\n</attempt_completion>' });
    const run = await runCli({ args: [...fx.cliArgs(), 'Look at the app'] });
    assert.equal(run.code, 0, run.stderr);
    const [first, second] = [systemPromptOf(fx.server.requestAt(0)), systemPromptOf(fx.server.requestAt(1))];
    assert.match(first, /## CLAUDE\.md\n\nAnswer tersely\./);
    assert.doesNotMatch(first, /Prefer function components|uses pnpm/);
    assert.match(second, /## \.cursor\/rules\/react\.mdc\n\nPrefer function components\.[\s\S]*## web\/AGENTS\.md\n\nThe web app uses pnpm\./);
  });
});
