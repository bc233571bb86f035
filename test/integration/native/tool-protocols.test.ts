// One multi-step scenario, written once, run through the built CLI for every provider under both
// tool protocols: XML blocks in the text, and each vendor's native tool calling in its
// real wire format. The files on disk and what the model was sent are checked for each.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { serializeBlocks } from '../../../src/core/parse/serialize-blocks.js';
import type { ToolProtocol } from '../../../src/core/providers/types.js';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import type { RecordedRequest, ScriptedLlmServer, ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { lastUserText, nativeCallRefs, nativeResults, offeredTools, systemPrompt, toolSchema } from './wire-views.js';

/** How the CLI reaches one provider on the scripted server. */
interface Vendor {
  /** A provider id, or openai-responses: OpenAI with a model only the Responses API serves. */
  readonly name: 'openai' | 'anthropic' | 'gemini' | 'openai-compatible' | 'openai-responses';
  args(server: ScriptedLlmServer): string[];
  readonly env: Record<string, string>;
}

const VENDORS: readonly Vendor[] = [
  { name: 'openai', args: (s) => ['--base-url', s.openAiBaseUrl, '--model', 'gpt-4.1'], env: { OPENAI_API_KEY: 'sk-test-openai' } },
  { name: 'anthropic', args: (s) => ['--base-url', s.anthropicBaseUrl, '--model', 'claude-sonnet-4-5'], env: { ANTHROPIC_API_KEY: 'sk-ant-test' } },
  { name: 'gemini', args: (s) => ['--base-url', s.geminiBaseUrl, '--model', 'gemini-2.5-flash'], env: { GEMINI_API_KEY: 'AIza-test' } },
  { name: 'openai-compatible', args: (s) => ['--base-url', s.openAiBaseUrl, '--model', 'scripted-model'], env: {} },
  { name: 'openai-responses', args: (s) => ['--base-url', s.openAiBaseUrl, '--model', 'gpt-5.1-codex'], env: { OPENAI_API_KEY: 'sk-test-openai' } },
];

type Params = Record<string, string | number | boolean>;

/** A model reply calling tools, in the protocol's own form: XML text, or native tool calls. */
function calls(protocol: ToolProtocol, text: string, ...toolCalls: Array<{ name: string; params: Params }>): ScriptedReply {
  if (protocol === 'native') return { text, toolCalls: toolCalls.map((c) => ({ name: c.name, arguments: c.params })) };
  const blocks = toolCalls.map((c) => ({ kind: 'tool' as const, name: c.name, partial: false, params: stringParams(c.params) }));
  return { text: serializeBlocks([{ kind: 'text', text, partial: false }, ...blocks]) };
}

/** A call the model botched: arguments cut off mid-JSON (native), or a block cut off before its closing tag (XML). */
function botchedEdit(protocol: ToolProtocol): ScriptedReply {
  if (protocol === 'native') return { toolCalls: [{ name: 'replace_in_file', arguments: '{"path": "src/config.ts", "diff": "------- SEARCH\\nexport' }] };
  return { text: '<replace_in_file>\n<path>src/config.ts</path>\n<diff>\n------- SEARCH\nexport' };
}

const edit = (path: string, search: string, replace: string) => ({
  name: 'replace_in_file',
  params: { path, diff: `------- SEARCH\n${search}\n=======\n${replace}\n+++++++ REPLACE` },
});

function stringParams(params: Params): Record<string, string> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));
}

/**
 * What the model was told about its previous calls, whatever the protocol: the native results
 * (checked to answer the calls of the last assistant turn, in order), or the XML user text.
 */
function resultsSeen(request: RecordedRequest, protocol: ToolProtocol): string[] {
  if (protocol === 'xml') {
    assert.equal(offeredTools(request), undefined, 'no native tools under the XML protocol');
    return [lastUserText(request)];
  }
  const results = nativeResults(request);
  assert.deepEqual(
    results.map((r) => r.callRef),
    nativeCallRefs(request),
    'one result per call, in the order of the calls',
  );
  return results.map((r) => r.content);
}

for (const vendor of VENDORS) {
  for (const protocol of ['xml', 'native'] as const) {
    describe(`${vendor.name} provider, ${protocol} tool protocol (built CLI)`, () => {
      const fx = useAgentFixture();
      const cli = (args: string[], answers: string[]) =>
        runCli({
          args: [
            '--provider',
            vendor.name === 'openai-responses' ? 'openai' : vendor.name,
            ...vendor.args(fx.server),
            '--tool-protocol',
            protocol,
            '--cwd',
            fx.ws.root,
            '--storage',
            fx.storage,
            ...args,
          ],
          answers,
          env: vendor.env,
        });

      test('reads, recovers from a botched call, takes a rejection with feedback, edits and completes', async () => {
        fx.ws.write('src/config.ts', 'export const retries = 1;\nexport const name = "app";\n');
        fx.server.enqueue(
          calls(protocol, 'Let me look first.', { name: 'read_file', params: { path: 'src/config.ts', start_line: 1 } }),
          botchedEdit(protocol),
          calls(protocol, 'Raising it.', edit('src/config.ts', 'export const retries = 1;', 'export const retries = 5;')),
          calls(protocol, '', edit('src/config.ts', 'export const retries = 1;', 'export const retries = 3;')),
          calls(protocol, '', { name: 'attempt_completion', params: { result: 'Raised retries to 3.' } }),
        );
        const run = await cli(['--output', 'json', 'Raise the retries'], ['use 3, not 5', 'y']);
        assert.equal(run.code, 0, run.stderr);
        assert.equal(fx.ws.read('src/config.ts'), 'export const retries = 3;\nexport const name = "app";\n');
        const summary = JSON.parse(run.stdout);
        assert.equal(summary.result, 'Raised retries to 3.');
        assert.deepEqual(summary.steps.find((s: { type: string }) => s.type === 'tool').input, { path: 'src/config.ts', start_line: '1' });

        const requests = fx.server.requests;
        assert.equal(requests.length, 5);
        assert.ok(requests.every((r) => r.format === (vendor.name === 'openai-compatible' ? 'openai' : vendor.name)));
        const prompt = systemPrompt(requests[0]!);
        if (protocol === 'native') {
          assert.ok(offeredTools(requests[0]!)!.includes('replace_in_file'));
          assert.ok(offeredTools(requests[0]!)!.includes('attempt_completion'));
          assert.deepEqual(toolSchema(requests[0]!, 'read_file').required, ['path']);
          assert.equal(toolSchema(requests[0]!, 'read_file').properties.start_line.type, 'string');
          assert.doesNotMatch(prompt, /## replace_in_file|Format a tool call as XML/);
          assert.match(prompt, /tool-calling interface/);
        } else {
          assert.match(prompt, /## replace_in_file/);
          assert.match(prompt, /Format a tool call as XML/);
        }
        assert.match(resultsSeen(requests[1]!, protocol)[0]!, /1 \| export const retries = 1;/);
        assert.match(
          resultsSeen(requests[2]!, protocol)[0]!,
          protocol === 'native' ? /arguments of your replace_in_file call are not (valid JSON|a JSON object)/ : /cut off before its closing tag/,
        );
        assert.match(resultsSeen(requests[3]!, protocol)[0]!, /The user denied this operation and said:\n<feedback>\nuse 3, not 5\n<\/feedback>/);
        assert.match(resultsSeen(requests[4]!, protocol)[0]!, /The file src\/config.ts was saved successfully/);
        if (protocol === 'native') {
          // Environment details follow the results as text in the same user turn.
          assert.match(lastUserText(requests[4]!), /<environment_details>/);
          const botched = nativeResults(requests[2]!)[0]!;
          if (!vendor.name.startsWith('openai')) assert.equal(botched.isError, true);
        }
      });

      if (protocol === 'native') {
        test('two calls in one response run one after another, each with its own approval', async () => {
          fx.ws.write('a.txt', 'alpha\n');
          fx.ws.write('b.txt', 'beta\n');
          fx.server.enqueue(
            calls(protocol, 'Both at once.', edit('a.txt', 'alpha', 'ALPHA'), edit('b.txt', 'beta', 'BETA')),
            calls(protocol, '', { name: 'attempt_completion', params: { result: 'Both done.' } }),
          );
          const run = await cli(['Shout'], ['y', 'y']);
          assert.equal(run.code, 0, run.stderr);
          assert.equal(fx.ws.read('a.txt'), 'ALPHA\n');
          assert.equal(fx.ws.read('b.txt'), 'BETA\n');
          const prompts = [...run.stderr.matchAll(/\? Edit (\S+)/g)].map((m) => m[1]);
          assert.deepEqual(prompts, ['a.txt', 'b.txt']);
          const results = resultsSeen(fx.server.requestAt(1), protocol);
          assert.equal(results.length, 2);
          assert.match(results[0]!, /a\.txt was saved successfully/);
          assert.match(results[1]!, /b\.txt was saved successfully/);
        });

        test('a denied call stops the rest of the response; each still gets a result', async () => {
          fx.ws.write('a.txt', 'alpha\n');
          fx.ws.write('b.txt', 'beta\n');
          fx.ws.write('c.txt', 'gamma\n');
          fx.server.enqueue(
            calls(protocol, '', edit('a.txt', 'alpha', 'ALPHA'), edit('b.txt', 'beta', 'BETA'), edit('c.txt', 'gamma', 'GAMMA')),
            calls(protocol, '', { name: 'attempt_completion', params: { result: 'Stopped.' } }),
          );
          const run = await cli(['Shout'], ['y', 'n']);
          assert.equal(run.code, 0, run.stderr);
          assert.deepEqual([fx.ws.read('a.txt'), fx.ws.read('b.txt'), fx.ws.read('c.txt')], ['ALPHA\n', 'beta\n', 'gamma\n']);
          assert.equal([...run.stderr.matchAll(/\? Edit /g)].length, 2, 'c.txt was never asked about');
          const results = resultsSeen(fx.server.requestAt(1), protocol);
          assert.equal(results.length, 3);
          assert.match(results[0]!, /a\.txt was saved successfully/);
          assert.equal(results[1], 'The user denied this operation.');
          assert.match(results[2]!, /Not executed because the user denied the replace_in_file call before it/);
        });
      }
    });
  }
}

describe('--openai-api', () => {
  test('accepts only chat-completions or responses, and is documented in --help', async () => {
    const bad = await runCli({
      args: ['--openai-api', 'assistants', '--provider', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', 'task'],
    });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--openai-api must be chat-completions or responses; got "assistants"/);
    const help = await runCli({ args: ['--help'] });
    assert.match(help.stdout, /--openai-api API/);
  });
});

describe('--tool-protocol', () => {
  test('accepts only xml or native, and is documented in --help', async () => {
    const bad = await runCli({
      args: ['--tool-protocol', 'json', '--provider', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', 'task'],
    });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--tool-protocol must be xml or native; got "json"/);
    const help = await runCli({ args: ['--help'] });
    assert.match(help.stdout, /--tool-protocol xml\|native/);
  });
});
