import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach } from 'node:test';
import type { Host } from '../../src/core/ports.js';
import type { ApiProvider } from '../../src/core/providers/types.js';
import { createTaskEnvironment, type TaskEnvironment, type TaskEnvironmentInput } from '../../src/core/session/task-environment.js';
import { APPROVE_ALL_POLICY } from '../../src/core/log/approval-policy.js';
import { startScriptedLlmServer, type RecordedRequest, type ScriptedLlmServer } from '../fixtures/scripted-llm-server.js';
import { createTempWorkspace, type TempWorkspace } from './temp-workspace.js';

/** A scripted LLM server for the suite, and a fresh workspace and storage folder per test. */
export interface AgentFixture {
  readonly server: ScriptedLlmServer;
  readonly ws: TempWorkspace;
  readonly storage: string;
  /** CLI arguments pointing smith at the scripted server, the workspace and the storage. */
  cliArgs(): string[];
}

/** Registers the suite's hooks (call inside describe or at the top of a file) and returns the fixture. */
export function useAgentFixture(): AgentFixture {
  let server: ScriptedLlmServer | undefined;
  let ws: TempWorkspace | undefined;
  let storage: string | undefined;
  before(async () => (server = await startScriptedLlmServer()));
  after(() => server?.close());
  beforeEach(() => {
    ws = createTempWorkspace();
    storage = mkdtempSync(join(tmpdir(), 'smith-storage-'));
    server!.requests.length = 0;
  });
  afterEach(() => {
    ws?.dispose();
    if (storage) rmSync(storage, { recursive: true, force: true });
  });
  const fixture: AgentFixture = {
    get server() {
      return server!;
    },
    get ws() {
      return ws!;
    },
    get storage() {
      return storage!;
    },
    cliArgs: () => [
      '--provider',
      'openai-compatible',
      '--base-url',
      server!.openAiBaseUrl,
      '--model',
      'scripted-model',
      '--cwd',
      ws!.root,
      '--storage',
      storage!,
    ],
  };
  return fixture;
}

/** The agent fixture plus in-process task environments on its workspace and storage. */
export interface TaskFixture extends AgentFixture {
  /** An environment that approves everything and allows 5 requests, for a Task run in the test; its commands end after the test. */
  environment(provider: ApiProvider, host: Host, extra?: Partial<TaskEnvironmentInput>): Promise<TaskEnvironment>;
}

/** Registers the suite's hooks for tasks run in-process against the scripted server. */
export function useTaskFixture(): TaskFixture {
  const open: TaskEnvironment[] = [];
  // Registered first, so commands end before their workspace is removed.
  afterEach(async () => {
    for (const environment of open.splice(0)) await environment.dispose();
  });
  const fixture = useAgentFixture();
  return Object.assign(Object.create(fixture) as AgentFixture, {
    async environment(provider: ApiProvider, host: Host, extra: Partial<TaskEnvironmentInput> = {}): Promise<TaskEnvironment> {
      const environment = await createTaskEnvironment({
        cwd: fixture.ws.root,
        storageDir: fixture.storage,
        host,
        provider,
        policy: APPROVE_ALL_POLICY,
        maxIterations: 5,
        ...extra,
      });
      open.push(environment);
      return environment;
    },
  });
}

type Messages = Array<{ role: string; content: unknown }>;

/** The text of the last user message a request carried. */
export function lastUserText(request: RecordedRequest): string {
  const content = (request.body.messages as Messages).filter((m) => m.role === 'user').at(-1)!.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/** The system prompt of an OpenAI-format request. */
export function systemPromptOf(request: RecordedRequest): string {
  return String((request.body.messages as Messages).find((m) => m.role === 'system')!.content);
}

/** Every message's text of a request, joined. */
export function allText(request: RecordedRequest): string {
  return (request.body.messages as Messages).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
}

/** The text of the last user message of an Anthropic request, its text parts joined. */
export function lastAnthropicUserText(request: RecordedRequest): string {
  const content = (request.body.messages as Array<{ role: string; content: string | Array<{ type: string; text?: string; content?: unknown }> }>)
    .filter((m) => m.role === 'user')
    .at(-1)!.content;
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : JSON.stringify(part.content))).join('\n');
}
