import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ChildProcessRunner } from '../../../src/core/process/child-process-runner.js';
import { CommandSessions } from '../../../src/core/process/command-sessions.js';
import { apiProjection } from '../../../src/core/task/api-projection.js';
import { DEFAULT_POLICY } from '../../../src/core/log/approval-policy.js';
import type { TaskEvent } from '../../../src/core/log/events.js';
import { TaskLog } from '../../../src/core/log/task-log.js';
import { runToolCall, type ToolCallEnvironment } from '../../../src/core/task/tool-call-runner.js';
import { createExecuteCommandTool } from '../../../src/core/tools/execute-command.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { replaceInFileTool } from '../../../src/core/tools/replace-in-file.js';
import { ToolRegistry } from '../../../src/core/tool-kit/tool-registry.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const FEEDBACK = (text: string) => `\n\nThe user approved with feedback:\n<feedback>\n${text}\n</feedback>`;

describe('approvals in the task log', () => {
  let ws: TempWorkspace;
  let storage: string;
  let harness: ToolHarness;
  let sessions: CommandSessions;
  let log: TaskLog;
  let policy = DEFAULT_POLICY;
  beforeEach(() => {
    policy = DEFAULT_POLICY;
    ws = createTempWorkspace();
    storage = mkdtempSync(join(tmpdir(), 'smith-approvals-'));
    harness = new ToolHarness(ws.root);
    harness.processes = new ChildProcessRunner({ killGraceMs: 1000 });
    sessions = new CommandSessions();
    log = TaskLog.create(storage, 't1');
  });
  afterEach(async () => {
    await sessions.killAll();
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });

  function call(name: string, params: Record<string, string>) {
    const env: ToolCallEnvironment = {
      log,
      tools: new ToolRegistry([readFileTool, replaceInFileTool, createExecuteCommandTool(sessions)]),
      host: harness.host,
      cwd: ws.root,
      policy,
      ignore: NOTHING_IGNORED,
      signal: new AbortController().signal,
      onProgress: () => {},
    };
    return runToolCall({ kind: 'tool', name, params, partial: false }, env, 0);
  }
  const userText = () =>
    apiProjection(log.events)
      .map((m) => (typeof m.content === 'string' ? m.content : ''))
      .join('\n');
  const count = (text: string, part: string) => text.split(part).length - 1;

  test('approval_asked holds the request as shown: tool, params, summary, diff and its line counts; the host is asked the same', async () => {
    ws.write('notes.txt', 'one\ntwo\n');
    harness.answers = [{ approved: true }];
    const params = { path: 'notes.txt', diff: '------- SEARCH\ntwo\n=======\nTWO\n+++++++ REPLACE' };
    await call('replace_in_file', params);
    const asked = log.events.find((e) => e.type === 'approval_asked');
    assert.ok(asked?.type === 'approval_asked' && asked.request);
    const { diff, ...rest } = asked.request;
    assert.deepEqual(rest, {
      callId: asked.callId,
      tool: 'replace_in_file',
      params,
      summary: 'Edit notes.txt (+1 -1)',
      path: 'notes.txt',
      stats: { added: 1, removed: 1 },
      allowRules: ['Edit(./notes.txt)'],
    });
    assert.match(diff ?? '', /^-two\n\+TWO$/m);
    // The host got exactly what was logged, plus the file texts for its diff editor (not logged).
    const { proposal, ...shown } = harness.asked[0]!;
    assert.deepEqual(shown, asked.request);
    assert.deepEqual(proposal, { original: 'one\ntwo\n', proposed: 'one\nTWO\n', isNewFile: false });
  });

  test("a command's approval shows the command; one outside the workspace says why it asks", async () => {
    harness.answers = [{ approved: true }, { approved: true }];
    await call('execute_command', { command: 'echo hi', requires_approval: 'true' });
    const outside = ws.write('../outside-approval-record.txt', 'x\n');
    try {
      await call('read_file', { path: outside });
    } finally {
      rmSync(outside, { force: true });
    }
    const requests = log.events.flatMap((e) => (e.type === 'approval_asked' && e.request ? [e.request] : []));
    assert.equal(requests[0]?.command, 'echo hi');
    assert.equal(requests[0]?.summary, 'Run command');
    assert.equal(requests[1]?.reason, 'The path is outside the workspace.');
  });

  test('feedback given with an approval reaches the model once, from approval_answered', async () => {
    harness.answers = [{ approved: true, feedback: 'fine, once' }];
    await call('execute_command', { command: 'echo hi', requires_approval: 'true' });
    const result = log.events.find((e) => e.type === 'tool_result');
    assert.ok(result?.type === 'tool_result');
    assert.doesNotMatch(result.output, /feedback/, 'the tool does not write the feedback');
    assert.match(
      userText(),
      new RegExp(
        `\\[execute_command for 'echo hi'\\] Result:\\nExit code: 0\\nOutput \\(stdout and stderr merged in the order printed\\):\\nhi${FEEDBACK('fine, once').replace(/\n/g, '\\n')}`,
      ),
    );
    assert.equal(count(userText(), 'fine, once'), 1);
  });

  test("every tool's approval feedback reaches the model, a read's too", async () => {
    ws.write('a.txt', 'alpha\n');
    policy = { ...DEFAULT_POLICY, readFiles: false };
    harness.answers = [{ approved: true, feedback: 'only the top part next time' }];
    await call('read_file', { path: 'a.txt' });
    assert.match(userText(), new RegExp(`1 \\| alpha${FEEDBACK('only the top part next time').replace(/\n/g, '\\n')}`));
  });

  test('a call that failed after an approval with feedback carries the feedback with its error', () => {
    const events: TaskEvent[] = [
      { seq: 0, ts: 0, type: 'task_started', taskId: 't', task: 'T', cwd: '/', provider: 'p', model: 'm', mode: 'act', modeSlug: 'default' },
      { seq: 1, ts: 0, type: 'model_response', text: 'calling', reasoning: '', blocks: [], usage: { inputTokens: 1, outputTokens: 1 } },
      { seq: 2, ts: 0, type: 'tool_requested', callId: 'c', tool: 'use_mcp_tool', params: { server_name: 's', tool_name: 't' } },
      { seq: 3, ts: 0, type: 'approval_asked', callId: 'c' },
      { seq: 4, ts: 0, type: 'approval_answered', callId: 'c', approved: true, feedback: 'careful' },
      {
        seq: 5,
        ts: 0,
        type: 'tool_error',
        callId: 'c',
        tool: 'use_mcp_tool',
        error: 'boom',
        mistake: false,
        details: { mcp: { server: 's', tool: 't', isError: true } },
      },
    ];
    assert.match(
      apiProjection(events).at(-1)!.content as string,
      new RegExp(`\\[use_mcp_tool for 's/t'\\] Error:\\nboom${FEEDBACK('careful').replace(/\n/g, '\\n')}$`),
    );
  });

  test('a log written when tools put the feedback in their output is projected as before, without a second copy', () => {
    const output = `Exit code: 0\nOutput:\nhi${FEEDBACK('fine, once')}`;
    const events: TaskEvent[] = [
      { seq: 0, ts: 0, type: 'task_started', taskId: 't', task: 'T', cwd: '/', provider: 'p', model: 'm', mode: 'act', modeSlug: 'default' },
      { seq: 1, ts: 0, type: 'model_response', text: 'calling', reasoning: '', blocks: [], usage: { inputTokens: 1, outputTokens: 1 } },
      { seq: 2, ts: 0, type: 'tool_requested', callId: 'c', tool: 'execute_command', params: { command: 'echo hi' } },
      { seq: 3, ts: 0, type: 'approval_asked', callId: 'c' },
      { seq: 4, ts: 0, type: 'approval_answered', callId: 'c', approved: true, feedback: 'fine, once' },
      { seq: 5, ts: 0, type: 'tool_result', callId: 'c', tool: 'execute_command', output },
    ];
    assert.equal(apiProjection(events).at(-1)!.content, `[execute_command for 'echo hi'] Result:\n${output}`);
  });
});
