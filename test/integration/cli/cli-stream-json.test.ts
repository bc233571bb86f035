// --output stream-json: one JSON object per line as things happen, the summary last.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StreamJsonLine } from '../../../src/cli/stream-json.js';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

describe('smith CLI: --output stream-json', () => {
  const fx = useAgentFixture();

  test('events, text deltas, command output and the summary, each a line of JSON, in order', async () => {
    fx.server.enqueue(
      {
        text: 'I will list the files.\n<execute_command>\n<command>echo streamed-output</command>\n<requires_approval>false</requires_approval>\n</execute_command>',
      },
      { text: '<attempt_completion>\n<result>Listed.</result>\n</attempt_completion>' },
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'stream-json', 'List the files'] });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as StreamJsonLine);
    const summary = lines.at(-1);
    assert.equal(summary?.type, 'summary');
    assert.equal(summary?.type === 'summary' ? summary.result : undefined, 'Listed.');
    const taskId = summary?.type === 'summary' ? summary.taskId : '';
    const events = lines.flatMap((l) => (l.type === 'event' ? [l.event] : []));
    assert.ok(lines.every((l) => l.type === 'summary' || l.taskId === taskId));
    assert.equal(events[0]?.type, 'task_started');
    assert.deepEqual(
      events.map((e) => e.seq),
      events.map((_, i) => i),
      'every logged event, in order',
    );
    assert.ok(events.some((e) => e.type === 'tool_result' && e.tool === 'execute_command'));
    assert.ok(
      events.some((e) => e.type === 'model_response' && e.usage.inputTokens > 0),
      'usage travels with the responses',
    );
    const text = lines.flatMap((l) => (l.type === 'delta' && l.kind === 'text' ? [l.text] : [])).join('');
    assert.match(text, /I will list the files\./);
    assert.ok(lines.some((l) => l.type === 'progress' && l.text.includes('streamed-output')));
    const firstDelta = lines.findIndex((l) => l.type === 'delta');
    const firstResponse = lines.findIndex((l) => l.type === 'event' && l.event.type === 'model_response');
    assert.ok(firstDelta < firstResponse, 'deltas stream before the response is logged');
  });

  test('a bad --output value is a usage error naming the choices', async () => {
    const run = await runCli({ args: [...fx.cliArgs(), '--output', 'xml', 'x'] });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--output must be human, json or stream-json; got "xml"/);
  });
});
