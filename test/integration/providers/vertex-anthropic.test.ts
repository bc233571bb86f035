import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { findModelInfo } from '../../../src/core/providers/model-catalog.js';
import { ProviderError, type ProviderConfig } from '../../../src/core/providers/types.js';
import { externalAccountCredentials, SCRIPTED_ACCESS_TOKEN } from '../../fixtures/scripted-llm-server-auth.js';
import { startScriptedLlmServer, type ScriptedLlmServer, type ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { collect, HELLO, keepEnvironment, READ_FILE_TOOLS } from './stream-helpers.js';

const GOOGLE_VARIABLES = [
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_CLOUD_PROJECT',
  'GOOGLE_CLOUD_LOCATION',
  'ANTHROPIC_VERTEX_PROJECT_ID',
  'CLOUD_ML_REGION',
  'ANTHROPIC_VERTEX_BASE_URL',
];

describe("Claude on Vertex AI, through Anthropic's Vertex SDK and Google Cloud's credential chain", () => {
  let server: ScriptedLlmServer;
  let dir: string;
  const restoreEnvironment = keepEnvironment(GOOGLE_VARIABLES);
  before(async () => {
    server = await startScriptedLlmServer();
    dir = mkdtempSync(join(tmpdir(), 'smith-vertex-claude-'));
    writeFileSync(join(dir, 'subject-token'), 'scripted-oidc-subject-token');
    writeFileSync(join(dir, 'credentials.json'), JSON.stringify(externalAccountCredentials(server.url, join(dir, 'subject-token'))));
  });
  after(async () => {
    restoreEnvironment();
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  });
  beforeEach(() => {
    for (const name of GOOGLE_VARIABLES) delete process.env[name];
    process.env.GOOGLE_APPLICATION_CREDENTIALS = join(dir, 'credentials.json');
    server.requests.length = 0;
    server.tokenExchanges.length = 0;
  });

  // The SDK appends /v1/messages to its base URL and rewrites that into Vertex's path.
  const config = (extra: Partial<ProviderConfig> = {}): ProviderConfig => ({
    provider: 'vertex-anthropic',
    model: 'claude-sonnet-4-5@20250929',
    baseUrl: `${server.url}/v1`,
    project: 'smith-test',
    location: 'us-east5',
    ...extra,
  });

  async function send(reply: ScriptedReply, extra: Partial<ProviderConfig> = {}, tools = false) {
    server.enqueue(reply);
    return collect(createProvider(config(extra)).createMessage({ ...HELLO, ...(tools ? { tools: READ_FILE_TOOLS } : {}) }));
  }

  test("streams text, native tool calls and usage from the model's streamRawPredict, with the exchanged access token", async () => {
    const { text, toolCalls, usages, error } = await send(
      { text: 'Reading it.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' }, id: 'toolu_1' }], usage: { input: 40, output: 12, cacheRead: 100 } },
      { toolProtocol: 'native' },
      true,
    );
    assert.equal(error, undefined);
    assert.equal(text, 'Reading it.');
    assert.deepEqual(
      toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
      [['toolu_1', 'read_file', { path: 'a.ts' }]],
    );
    assert.deepEqual(usages, [{ inputTokens: 140, outputTokens: 12, cacheReadTokens: 100, cacheWriteTokens: 0 }]);
    const request = server.requestAt(0);
    assert.equal(request.path, '/v1/projects/smith-test/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict');
    assert.equal(request.headers.authorization, `Bearer ${SCRIPTED_ACCESS_TOKEN}`);
    assert.equal(request.headers['x-api-key'], undefined);
    // The API version travels in the body on Vertex AI, never as the anthropic-version header.
    assert.equal(typeof request.body.anthropic_version, 'string');
    assert.equal(request.headers['anthropic-version'], undefined);
    assert.equal(request.body.model, undefined);
    assert.deepEqual(server.tokenExchanges, ['scripted-oidc-subject-token']);
  });

  test('the token is exchanged once and used for the next requests too', async () => {
    const provider = createProvider(config());
    for (const text of ['one', 'two']) {
      server.enqueue({ text });
      assert.equal((await collect(provider.createMessage(HELLO))).text, text);
    }
    assert.equal(server.tokenExchanges.length, 1);
  });

  test("project and region from Google Cloud's variables, or Claude Code's; named when missing", async () => {
    process.env.ANTHROPIC_VERTEX_PROJECT_ID = 'claude-code-project';
    process.env.CLOUD_ML_REGION = 'europe-west1';
    const { error } = await send({ text: 'ok' }, { project: undefined, location: undefined });
    assert.equal(error, undefined);
    assert.equal(
      server.requestAt(0).path,
      '/v1/projects/claude-code-project/locations/europe-west1/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
    );
    delete process.env.ANTHROPIC_VERTEX_PROJECT_ID;
    assert.throws(
      () => createProvider(config({ project: undefined })),
      /Claude on Vertex AI needs the Google Cloud project \(GOOGLE_CLOUD_PROJECT\)\. Set the variable\./,
    );
  });

  test('a 529 overload is retryable; a 403 names the credentials to fix', async () => {
    const busy = await send({ fault: 'status', status: 529 });
    assert.ok(busy.error instanceof ProviderError, String(busy.error));
    assert.equal(busy.error.retryable, true);
    const denied = await send({ fault: 'status', status: 403 });
    assert.ok(denied.error instanceof ProviderError, String(denied.error));
    assert.equal(denied.error.retryable, false);
    assert.match(denied.error.message, /Vertex AI refused access.*GOOGLE_APPLICATION_CREDENTIALS/);
  });

  test('credentials that cannot be loaded are named, not retried, and nothing reaches the model', async () => {
    process.env.GOOGLE_APPLICATION_CREDENTIALS = join(dir, 'missing.json');
    const { error } = await collect(createProvider(config()).createMessage(HELLO));
    assert.ok(error instanceof ProviderError, String(error));
    assert.equal(error.retryable, false);
    assert.match(error.message, /^No usable Google Cloud credentials for Vertex AI: .*missing\.json/);
    assert.equal(server.requests.length, 0);
  });

  test('the catalogue knows the model by its Vertex name, for cost and context', () => {
    assert.equal(findModelInfo('vertex-anthropic', 'claude-sonnet-4-5@20250929')?.inputPrice, 3);
  });
});
