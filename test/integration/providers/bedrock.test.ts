import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { findModelInfo } from '../../../src/core/providers/model-catalog.js';
import { ProviderError, type ProviderConfig } from '../../../src/core/providers/types.js';
import { startScriptedLlmServer, type ScriptedLlmServer, type ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { collect, HELLO, keepEnvironment, READ_FILE_TOOLS } from './stream-helpers.js';

const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
// Everything the AWS credential chain reads, so the machine's own setup never leaks into a test.
const AWS_VARIABLES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_PROFILE',
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_CONFIG_FILE',
  'AWS_BEARER_TOKEN_BEDROCK',
  'AWS_EC2_METADATA_DISABLED',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'ANTHROPIC_BEDROCK_BASE_URL',
];

describe("Claude on Amazon Bedrock, through Anthropic's Bedrock SDK and the AWS credential chain", () => {
  let server: ScriptedLlmServer;
  let dir: string;
  const restoreEnvironment = keepEnvironment(AWS_VARIABLES);
  before(async () => {
    server = await startScriptedLlmServer();
    dir = mkdtempSync(join(tmpdir(), 'smith-bedrock-'));
    writeFileSync(join(dir, 'credentials'), '[smith-test]\naws_access_key_id = AKIAPROFILEEXAMPLE1\naws_secret_access_key = profile-secret-key-example\n');
    writeFileSync(join(dir, 'config'), '[profile smith-test]\nregion = eu-central-1\n');
  });
  after(async () => {
    restoreEnvironment();
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  });
  beforeEach(() => {
    for (const name of AWS_VARIABLES) delete process.env[name];
    // No instance metadata service here: the chain must not wait for one.
    process.env.AWS_EC2_METADATA_DISABLED = 'true';
    process.env.AWS_SHARED_CREDENTIALS_FILE = join(dir, 'credentials');
    process.env.AWS_CONFIG_FILE = join(dir, 'config');
    server.requests.length = 0;
  });

  const config = (extra: Partial<ProviderConfig> = {}): ProviderConfig => ({
    provider: 'bedrock',
    model: MODEL,
    baseUrl: server.url,
    location: 'us-west-2',
    ...extra,
  });

  async function send(reply: ScriptedReply, extra: Partial<ProviderConfig> = {}, tools = false) {
    server.enqueue(reply);
    return collect(createProvider(config(extra)).createMessage({ ...HELLO, ...(tools ? { tools: READ_FILE_TOOLS } : {}) }));
  }

  test('a profile from ~/.aws signs the request; the binary event stream yields text, native tool calls and usage', async () => {
    process.env.AWS_PROFILE = 'smith-test';
    const { text, toolCalls, usages, error } = await send(
      { text: 'Reading it.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' }, id: 'toolu_1' }], usage: { input: 30, output: 9, cacheWrite: 50 } },
      { toolProtocol: 'native' },
      true,
    );
    assert.equal(error, undefined);
    assert.equal(text, 'Reading it.');
    assert.deepEqual(
      toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
      [['toolu_1', 'read_file', { path: 'a.ts' }]],
    );
    assert.deepEqual(usages, [{ inputTokens: 80, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 50 }]);
    const request = server.requestAt(0);
    assert.equal(decodeURIComponent(request.path), `/model/${MODEL}/invoke-with-response-stream`);
    assert.match(
      String(request.headers.authorization),
      /^AWS4-HMAC-SHA256 Credential=AKIAPROFILEEXAMPLE1\/\d{8}\/us-west-2\/bedrock\/aws4_request, SignedHeaders=.*, Signature=[0-9a-f]{64}$/,
    );
    assert.equal(typeof request.body.anthropic_version, 'string');
    assert.equal(request.body.model, undefined);
  });

  test('keys in the environment win, with a session token; the region from AWS_REGION', async () => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIAENVEXAMPLE00001';
    process.env.AWS_SECRET_ACCESS_KEY = 'env-secret-key-example';
    process.env.AWS_SESSION_TOKEN = 'env-session-token';
    process.env.AWS_REGION = 'ap-northeast-1';
    const { error } = await send({ text: 'ok' }, { location: undefined });
    assert.equal(error, undefined);
    const request = server.requestAt(0);
    assert.match(String(request.headers.authorization), /Credential=AKIAENVEXAMPLE00001\/\d{8}\/ap-northeast-1\/bedrock\//);
    assert.equal(request.headers['x-amz-security-token'], 'env-session-token');
  });

  test('a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) is sent as a bearer token instead of a signature', async () => {
    const { error } = await send({ text: 'ok' }, { apiKey: 'bedrock-api-key-example' });
    assert.equal(error, undefined);
    assert.equal(server.requestAt(0).headers.authorization, 'Bearer bedrock-api-key-example');
  });

  test('a throttle is retryable; access denied names the credentials to fix', async () => {
    process.env.AWS_PROFILE = 'smith-test';
    const throttled = await send({ fault: 'status', status: 429 });
    assert.ok(throttled.error instanceof ProviderError, String(throttled.error));
    assert.equal(throttled.error.retryable, true);
    const denied = await send({ fault: 'status', status: 403 });
    assert.ok(denied.error instanceof ProviderError, String(denied.error));
    assert.equal(denied.error.retryable, false);
    assert.match(denied.error.message, /Amazon Bedrock refused access.*AWS_ACCESS_KEY_ID/);
  });

  test('no credentials anywhere: a clear error, not retried, and nothing reaches the model', async () => {
    process.env.AWS_PROFILE = 'nobody';
    const { error } = await collect(createProvider(config()).createMessage(HELLO));
    assert.ok(error instanceof ProviderError, String(error));
    assert.equal(error.retryable, false);
    assert.match(error.message, /^No usable AWS credentials for Amazon Bedrock: .*Check AWS's credentials/);
    assert.equal(server.requests.length, 0);
  });

  test("the catalogue knows Bedrock's model names, inference profiles included", () => {
    assert.equal(findModelInfo('bedrock', MODEL)?.inputPrice, 3);
    assert.equal(findModelInfo('bedrock', 'global.anthropic.claude-haiku-4-5-20251001-v1:0')?.inputPrice, 1);
    assert.equal(findModelInfo('bedrock', 'anthropic.claude-3-5-haiku-20241022-v1:0')?.outputPrice, 4);
  });
});
