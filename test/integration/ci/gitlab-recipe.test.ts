// The GitLab CI job users copy (examples/gitlab/smith.gitlab-ci.yml), its YAML parsed and its
// script lines run as a GitLab runner runs them (one shell, stopping at the first failing line),
// with the variables GitLab sets for a merge request pipeline, CI_API_V4_URL at a local server
// that records the note, and the provider's base URL at the scripted LLM server. The first
// before_script line (apt-get, which needs root and the network) is left to the machine.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { lastAnthropicUserText } from '../../helpers/agent-fixture.js';
import { gitRepoPerTest } from '../../helpers/git-repo.js';
import { runScript } from '../../helpers/github-actions.js';
import { startRecordingApi, type RecordingApi } from '../../helpers/recording-api.js';

const ROOT = resolve(__dirname, '../../..');
const recipe = parse(readFileSync(join(ROOT, 'examples/gitlab/smith.gitlab-ci.yml'), 'utf8')) as {
  smith: { variables: Record<string, string>; before_script: string[]; script: string[]; artifacts: { when: string; paths: string[] } };
};
const SECRET = 'sk-ant-gitlab-0123456789abcdef';
const GITLAB_TOKEN = 'glpat-0123456789abcdefghij';

describe('examples/gitlab/smith.gitlab-ci.yml', () => {
  let llm: ScriptedLlmServer;
  let api: RecordingApi;
  let temp: string;
  const newRepo = gitRepoPerTest();

  before(async () => {
    llm = await startScriptedLlmServer();
    api = await startRecordingApi();
  });
  after(async () => {
    await llm.close();
    await api.close();
  });
  afterEach(() => rmSync(temp, { recursive: true, force: true }));

  async function runRecipe() {
    const repo = newRepo({
      initialFiles: {
        'src/greet.ts': 'export const greet = () => "hi";\n',
        // The project's tests, which the recipe allows: they print what their environment holds.
        'package.json': JSON.stringify({ name: 'widgets', scripts: { test: 'echo "token=[$SMITH_GITLAB_TOKEN] key=[$ANTHROPIC_API_KEY]"' } }),
      },
    });
    mkdirSync(join(repo.repo, 'ci'));
    copyFileSync(join(ROOT, 'examples/ci/smith-ci.mjs'), join(repo.repo, 'ci/smith-ci.mjs'));
    repo.commit('CI');
    temp = mkdtempSync(join(tmpdir(), 'smith-gl-'));
    const prefix = join(temp, 'npm-global');
    mkdirSync(join(temp, 'home'));
    const { before_script, script, variables } = recipe.smith;
    assert.match(before_script[0]!, /apt-get install -y -qq bubblewrap/);
    const run = await runScript('bash', ['-e', '-c', [...before_script.slice(1), ...script].join('\n')], {
      cwd: repo.repo,
      timeoutMs: 180_000,
      env: {
        PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
        HOME: join(temp, 'home'),
        NO_COLOR: '1',
        npm_config_prefix: prefix,
        npm_config_offline: 'true',
        npm_config_ignore_scripts: 'true',
        SMITH_STORAGE: join(temp, 'storage'),
        ANTHROPIC_BASE_URL: llm.anthropicBaseUrl,
        ...variables,
        GITLAB_CI: 'true',
        CI_PIPELINE_SOURCE: 'merge_request_event',
        CI_API_V4_URL: `${api.url}/api/v4`,
        CI_PROJECT_ID: '42',
        CI_MERGE_REQUEST_IID: '3',
        CI_PROJECT_DIR: repo.repo,
        SMITH_PACKAGE: ROOT,
        ANTHROPIC_API_KEY: SECRET,
        SMITH_GITLAB_TOKEN: GITLAB_TOKEN,
      },
    });
    return { repo, run };
  }

  test('a merge request: the note holds the result and the patch, the artifact the log; the token is not in the task’s environment', async () => {
    const before = llm.requests.length;
    llm.enqueue(
      { text: '<execute_command>\n<command>npm test</command>\n<requires_approval>false</requires_approval>\n<timeout>170</timeout>\n</execute_command>' },
      { text: '<read_file>\n<path>src/greet.ts</path>\n</read_file>' },
      { text: '<write_to_file>\n<path>src/greet.ts</path>\n<content>\nexport const greet = () => "Hello!";\n</content>\n</write_to_file>' },
      { text: '<attempt_completion>\n<result>Greeting fixed.</result>\n</attempt_completion>' },
    );
    const { repo, run } = await runRecipe();
    assert.equal(run.status, 0, run.stderr);
    assert.match(lastAnthropicUserText(llm.requests[before]!), /Review the changes of this merge request/);
    const note = api.requests.at(-1)!;
    assert.equal(note.url, '/api/v4/projects/42/merge_requests/3/notes');
    assert.equal(note.headers['private-token'], GITLAB_TOKEN);
    assert.match(note.body.body, /Smith completed the task/);
    assert.match(note.body.body, /\+export const greet = \(\) => "Hello!";/);
    assert.doesNotMatch(note.body.body, /smith-ci\//, 'the report folder is not part of the patch');
    assert.deepEqual(recipe.smith.artifacts, { when: 'always', paths: ['smith-ci/'] });
    const log = readFileSync(join(repo.repo, 'smith-ci/smith-log.jsonl'), 'utf8');
    assert.equal(JSON.parse(log.trim().split('\n').at(-1)!).type, 'summary');
    assert.match(
      lastAnthropicUserText(llm.requests[before + 1]!),
      /token=\[\] key=\[\[REDACTED\]\]/,
      "the tests ran; the forge's token was not in their environment",
    );
    assert.ok(!log.includes(GITLAB_TOKEN) && !log.includes(SECRET));
  });

  test('a failed task still posts its note, and the job fails with its exit code', async () => {
    llm.enqueue({ fault: 'status', status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } });
    const { run } = await runRecipe();
    assert.equal(run.status, 1, run.stderr);
    assert.match(api.requests.at(-1)!.body.body, /did not complete the task \(exit code 1\)/);
  });
});
