import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { ProviderError, type ProviderConfig } from '../../../src/core/providers/types.js';
import { externalAccountCredentials, SCRIPTED_ACCESS_TOKEN } from '../../fixtures/scripted-llm-server-auth.js';
import { startScriptedLlmServer, type ScriptedLlmServer, type ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { collect, HELLO, keepEnvironment, READ_FILE_TOOLS } from './stream-helpers.js';

const GOOGLE_VARIABLES = ['GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION', 'GOOGLE_API_KEY', 'GOOGLE_GENAI_USE_VERTEXAI'];

describe('Gemini on Vertex AI, with Google Cloud credentials from the environment', () => {
  let server: ScriptedLlmServer;
  let dir: string;
  const restoreEnvironment = keepEnvironment(GOOGLE_VARIABLES);
  before(async () => {
    server = await startScriptedLlmServer();
    dir = mkdtempSync(join(tmpdir(), 'smith-vertex-'));
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
    // The usual chain: a credentials file named by the variable (here, workload identity federation).
    process.env.GOOGLE_APPLICATION_CREDENTIALS = join(dir, 'credentials.json');
    server.requests.length = 0;
    server.tokenExchanges.length = 0;
  });

  const config = (extra: Partial<ProviderConfig> = {}): ProviderConfig => ({
    provider: 'vertex-gemini',
    model: 'gemini-2.5-flash',
    baseUrl: server.url,
    project: 'smith-test',
    location: 'us-central1',
    ...extra,
  });

  async function send(reply: ScriptedReply, extra: Partial<ProviderConfig> = {}, tools = false) {
    server.enqueue(reply);
    return collect(createProvider(config(extra)).createMessage({ ...HELLO, ...(tools ? { tools: READ_FILE_TOOLS } : {}) }));
  }

  test("streams text, native tool calls and usage from the project's regional endpoint, with the exchanged access token", async () => {
    const { text, toolCalls, usages, error } = await send(
      { text: 'Reading it.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }], usage: { input: 50, output: 10 } },
      { toolProtocol: 'native' },
      true,
    );
    assert.equal(error, undefined);
    assert.equal(text, 'Reading it.');
    assert.deepEqual(
      toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]),
      [['read_file', { path: 'a.ts' }]],
    );
    assert.deepEqual(usages, [{ inputTokens: 50, outputTokens: 10 }]);
    const request = server.requestAt(0);
    assert.equal(request.path, '/v1beta1/projects/smith-test/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent');
    assert.equal(request.headers.authorization, `Bearer ${SCRIPTED_ACCESS_TOKEN}`);
    assert.deepEqual(server.tokenExchanges, ['scripted-oidc-subject-token']);
  });

  test('the project and region come from GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION when not configured', async () => {
    process.env.GOOGLE_CLOUD_PROJECT = 'from-env';
    process.env.GOOGLE_CLOUD_LOCATION = 'europe-west4';
    const { error } = await send({ text: 'ok' }, { project: undefined, location: undefined });
    assert.equal(error, undefined);
    assert.equal(server.requestAt(0).path, '/v1beta1/projects/from-env/locations/europe-west4/publishers/google/models/gemini-2.5-flash:streamGenerateContent');
  });

  test('a 503 is retryable; a 403 names the credentials to fix', async () => {
    const busy = await send({ fault: 'status', status: 503 });
    assert.ok(busy.error instanceof ProviderError, String(busy.error));
    assert.equal(busy.error.retryable, true);
    const denied = await send({ fault: 'status', status: 403 });
    assert.ok(denied.error instanceof ProviderError, String(denied.error));
    assert.equal(denied.error.retryable, false);
    assert.match(denied.error.message, /GOOGLE_APPLICATION_CREDENTIALS/);
  });

  test('no project or region: a clear error before any request', () => {
    assert.throws(() => createProvider(config({ project: undefined })), /needs the Google Cloud project \(GOOGLE_CLOUD_PROJECT\)/);
    assert.throws(
      () => createProvider(config({ project: undefined, location: undefined })),
      /project \(GOOGLE_CLOUD_PROJECT\) and the region \(GOOGLE_CLOUD_LOCATION/,
    );
  });

  test('credentials that cannot be loaded are named, not retried', async () => {
    process.env.GOOGLE_APPLICATION_CREDENTIALS = join(dir, 'missing.json');
    // Nothing is queued: the request must fail before it reaches the model's endpoint.
    const { error } = await collect(createProvider(config()).createMessage(HELLO));
    assert.ok(error instanceof ProviderError, String(error));
    assert.equal(error.retryable, false);
    assert.match(
      error.message,
      /^No usable Google Cloud credentials for Vertex AI: .*missing\.json.* Check Google Cloud's credentials \(GOOGLE_APPLICATION_CREDENTIALS/,
    );
    assert.equal(server.requests.length, 0);
  });

  test('express mode: a Vertex API key instead of the project and credentials', async () => {
    const { error, text } = await send({ text: 'express' }, { apiKey: 'vertex-express-key', project: undefined, location: undefined });
    assert.equal(error, undefined);
    assert.equal(text, 'express');
    const request = server.requestAt(0);
    assert.equal(request.path, '/v1beta1/publishers/google/models/gemini-2.5-flash:streamGenerateContent');
    assert.equal(request.headers['x-goog-api-key'], 'vertex-express-key');
    assert.equal(request.headers.authorization, undefined);
  });
});
