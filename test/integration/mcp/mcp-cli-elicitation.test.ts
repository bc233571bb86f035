// Through the built CLI: a server's form is asked on the terminal (even with --yes), declined when
// nobody can answer, and a tool's progress is shown on stderr.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { beforeEach, describe, test } from 'node:test';
import type { RecordedRequest } from '../../fixtures/scripted-llm-server.js';
import { runCli } from '../../helpers/cli-runner.js';
import { startCliOnPty } from '../../helpers/cli-pty.js';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { fixtureEntry, npmServerEntry, writeConfig } from '../../fixtures/mcp/mcp-test-support.js';

const CALL_ASK = '<use_mcp_tool>\n<server_name>fx</server_name>\n<tool_name>ask</tool_name>\n<arguments>{}</arguments>\n</use_mcp_tool>';

describe('smith CLI: MCP forms and progress', { timeout: 120_000 }, () => {
  const fx = useAgentFixture();
  let configFile: string;
  beforeEach(() => {
    configFile = join(fx.ws.root, 'extra-mcp.json');
    writeConfig(configFile, { fx: fixtureEntry('--client-features'), everything: npmServerEntry('server-everything') });
  });
  const baseArgs = () => [...fx.cliArgs(), '--mcp-config', configFile];

  test('on a terminal the form is asked field by field, even with --yes; a value out of bounds is asked again', async () => {
    let toolResult = '';
    fx.server.enqueue({ text: CALL_ASK }, (request) => {
      toolResult = lastUserText(request);
      return { text: '<attempt_completion>\n<result>Asked.</result>\n</attempt_completion>' };
    });
    const cli = startCliOnPty([...baseArgs(), '--yes', 'Ask me']);
    try {
      await cli.waitFor(/MCP server "fx" asks for input:[\s\S]*Tell the fixture about yourself\.[\s\S]*Fill it in\? \[y\]es/);
      let mark = cli.output.length;
      await cli.type('y');
      await cli.waitFor(/Your name: /, mark);
      mark = cli.output.length;
      await cli.type('Ada');
      await cli.waitFor(/Age \(integer 0–150, optional\): /, mark);
      mark = cli.output.length;
      await cli.type('200');
      await cli.waitFor(/at most 150/, mark);
      mark = cli.output.length;
      await cli.type('36');
      await cli.waitFor(/Agree \(y\/n, optional\) \[false\]: /, mark);
      await cli.type('');
      assert.equal(await cli.exited, 0, cli.output);
    } finally {
      cli.kill();
    }
    assert.match(toolResult, /elicitation accept \{"name":"Ada","age":36,"agree":false\}/, toolResult);
  });

  test("a tool that adds a tool (tools/list_changed): the model's next request lists it, without a restart", async () => {
    fx.server.enqueue(
      { text: '<use_mcp_tool>\n<server_name>fx</server_name>\n<tool_name>grow</tool_name>\n</use_mcp_tool>' },
      { text: '<use_mcp_tool>\n<server_name>fx</server_name>\n<tool_name>grown</tool_name>\n</use_mcp_tool>' },
      { text: '<attempt_completion>\n<result>Grew.</result>\n</attempt_completion>' },
    );
    const run = await runCli({ args: [...baseArgs(), '--yes', 'Grow'], timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    const system = (request: RecordedRequest) => String((request.body.messages as Array<{ content: unknown }>)[0]!.content);
    assert.doesNotMatch(system(fx.server.requests[0]!), /- grown: /);
    assert.match(system(fx.server.requests[1]!), /- grown: A tool added at run time\./);
    assert.match(lastUserText(fx.server.requests[2]!), /I grew\./);
  });

  test('without a terminal the form is declined and stderr says so; progress is shown on stderr', async () => {
    let declined = '';
    fx.server.enqueue(
      { text: CALL_ASK },
      (request) => {
        declined = lastUserText(request);
        return {
          text: '<use_mcp_tool>\n<server_name>everything</server_name>\n<tool_name>trigger-long-running-operation</tool_name>\n<arguments>{"duration": 1, "steps": 4}</arguments>\n</use_mcp_tool>',
        };
      },
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
    );
    const run = await runCli({ args: [...baseArgs(), '--yes', 'Ask me'], timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(declined, /elicitation decline \{\}/, declined);
    assert.match(run.stderr, /MCP server "fx" asked for input \("Tell the fixture about yourself\."\); declined: no terminal to ask on\./);
    assert.match(run.stderr, /Progress 1\/4 \(25%\)\n[\s\S]*Progress 2\/4 \(50%\)/);
  });
});
