// A Task run in-process against a ScriptedProvider: real files in a temporary workspace, real
// tools, a host whose approvals and questions are answered from scripted lists.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import type { ApprovalRequest, Host } from '../../src/core/ports.js';
import type { ModelInfo } from '../../src/core/providers/model-catalog.js';
import { DEFAULT_POLICY } from '../../src/core/log/approval-policy.js';
import type { TaskOptions } from '../../src/core/task/task.js';
import { askFollowupQuestionTool } from '../../src/core/tools/ask-followup-question.js';
import { attemptCompletionTool } from '../../src/core/tools/attempt-completion.js';
import { readFileTool } from '../../src/core/tools/read-file.js';
import { ToolRegistry } from '../../src/core/tool-kit/tool-registry.js';
import { writeToFileTool } from '../../src/core/tools/write-to-file.js';
import { ScriptedProvider } from './scripted-provider.js';
import { createTempWorkspace, type TempWorkspace } from './temp-workspace.js';
import { ToolHarness } from './tool-harness.js';

/** A question the task asked the user (e.g. whether to go on past a limit) and the answer it got. */
export interface AskedQuestion {
  readonly question: string;
  readonly options: readonly string[];
  readonly answer: string | undefined;
}

/** One test's workspace, storage, scripted model and scripted user. */
export interface InMemoryTaskFixture {
  readonly ws: TempWorkspace;
  readonly storage: string;
  /** The model; assign another ScriptedProvider before options() for another protocol. */
  provider: ScriptedProvider;
  /** Answers approvals (`answers`, `whileAsking`) and records them (`asked`). */
  readonly user: ToolHarness;
  /** Answers to the task's questions, in order; none left: no one answers (undefined), as in a headless run. */
  readonly questionAnswers: (string | undefined)[];
  readonly questions: AskedQuestion[];
  readonly notices: string[];
  readonly host: Host;
  /** Options with the real read_file, write_to_file, ask_followup_question and attempt_completion, asking before edits. */
  options(extra?: Partial<TaskOptions>): TaskOptions;
}

/** Prices that make a response of 1,000,000 input tokens cost $1 and of 1,000,000 output tokens $2. */
export const PRICED_MODEL: ModelInfo = {
  id: 'scripted-model',
  contextWindow: 1_000_000,
  maxOutputTokens: 10_000,
  inputPrice: 1,
  outputPrice: 2,
  supportsReasoning: false,
  supportsImages: false,
  supportsPromptCache: false,
};

/** Registers the hooks that give each test of the file a fresh fixture (its fields are replaced before each test). */
export function useInMemoryTask(): InMemoryTaskFixture {
  const fixture = { options: (extra = {}) => taskOptions(fixture, extra) } as InMemoryTaskFixture;
  beforeEach(() => {
    Object.assign(fixture, freshState());
  });
  afterEach(() => {
    fixture.ws.dispose();
    rmSync(fixture.storage, { recursive: true, force: true });
  });
  return fixture;
}

function freshState(): Omit<InMemoryTaskFixture, 'options'> {
  const ws = createTempWorkspace();
  const storage = mkdtempSync(join(tmpdir(), 'smith-storage-'));
  const user = new ToolHarness(ws.root);
  const questionAnswers: (string | undefined)[] = [];
  const questions: AskedQuestion[] = [];
  const notices: string[] = [];
  const host: Host = {
    ...user.host,
    questions: {
      ask: async (question, options) => {
        const answer = questionAnswers.shift();
        questions.push({ question, options, answer });
        return answer;
      },
    },
    notify: (_level, message) => notices.push(message),
  };
  return { ws, storage, provider: new ScriptedProvider(), user, questionAnswers, questions, notices, host };
}

function taskOptions(fixture: InMemoryTaskFixture, extra: Partial<TaskOptions>): TaskOptions {
  return {
    cwd: fixture.ws.root,
    storageDir: fixture.storage,
    globalRulesDir: join(fixture.storage, 'rules'),
    host: fixture.host,
    provider: fixture.provider,
    tools: new ToolRegistry([readFileTool, writeToFileTool, askFollowupQuestionTool, attemptCompletionTool]),
    policy: DEFAULT_POLICY,
    maxIterations: 10,
    retry: { maxRetries: 0 },
    ...extra,
  };
}

/** The approvals the user was asked, by tool and path. */
export function askedCalls(asked: readonly ApprovalRequest[]): string[] {
  return asked.map((request) => `${request.tool} ${request.params?.path ?? ''}`.trim());
}
