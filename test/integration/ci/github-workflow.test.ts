// The GitHub Actions workflow users copy (examples/github/smith.yml), run as a runner would: its
// YAML parsed, its job's `if:`, each step's `if:`, env and `run:` lines as written, the event JSON
// in $GITHUB_EVENT_PATH, GITHUB_API_URL at a local server that records the comment, and the
// provider's base URL at the scripted LLM server. Smith is installed by the workflow's own
// `npm install -g` line (from this checkout, offline). Only the checkout, setup-node and
// upload-artifact actions are stood in for, and the step that runs `sudo apt-get`.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { lastAnthropicUserText as lastUserText } from '../../helpers/agent-fixture.js';
import { gitRepoPerTest, type GitRepo } from '../../helpers/git-repo.js';
import { startRecordingApi, type RecordingApi } from '../../helpers/recording-api.js';
import { condition, runJob, type JobResult, type WorkflowJob } from '../../helpers/github-actions.js';

const ROOT = resolve(__dirname, '../../..');
const WORKFLOW_FILE = join(ROOT, 'examples/github/smith.yml');
const SCRIPT_FILE = join(ROOT, 'examples/ci/smith-ci.mjs');
const workflow = parse(readFileSync(WORKFLOW_FILE, 'utf8')) as {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: { smith: WorkflowJob };
};
const job = workflow.jobs.smith;
const SECRET = 'sk-ant-test-0123456789abcdef';
const GITHUB_TOKEN = 'ghs_actions0123456789token';

function pullRequestEvent(number: number, headRepo = 'acme/widgets') {
  return {
    action: 'opened',
    number,
    pull_request: { number, title: 'Friendlier greeting', head: { ref: 'greeting', repo: { full_name: headRepo } }, base: { ref: 'main' } },
    repository: { full_name: 'acme/widgets' },
  };
}

function commentEvent(number: number, body: string, association = 'MEMBER') {
  return {
    action: 'created',
    issue: { number, title: 'Friendlier greeting', pull_request: { url: `https://api.github.com/repos/acme/widgets/pulls/${number}` } },
    comment: { body, author_association: association, user: { login: 'maintainer' } },
    repository: { full_name: 'acme/widgets' },
  };
}

function githubContext(eventName: string, event: object, apiUrl: string) {
  return { event_name: eventName, event, repository: 'acme/widgets', api_url: apiUrl, token: GITHUB_TOKEN };
}

describe('examples/github/smith.yml', () => {
  let llm: ScriptedLlmServer;
  let api: RecordingApi;
  const newRepo = gitRepoPerTest();
  let temp: string;
  let artifacts: Array<{ name: string; path: string }>;
  let checkoutRef: string | undefined;

  before(async () => {
    llm = await startScriptedLlmServer();
    api = await startRecordingApi();
  });
  after(async () => {
    await llm.close();
    await api.close();
  });
  afterEach(() => rmSync(temp, { recursive: true, force: true }));

  /** A repository as actions/checkout leaves it, with the script where the workflow's comment says to copy it. */
  function checkout(): GitRepo {
    const repo = newRepo({ initialFiles: { 'src/greet.ts': 'export const greet = () => "hi";\n', 'README.md': '# widgets\n' } });
    mkdirSync(join(repo.repo, '.github'));
    copyFileSync(SCRIPT_FILE, join(repo.repo, '.github/smith-ci.mjs'));
    repo.commit('CI');
    return repo;
  }

  async function runWorkflow(eventName: string, event: object, repo: GitRepo): Promise<JobResult> {
    temp = mkdtempSync(join(tmpdir(), 'smith-gh-'));
    artifacts = [];
    checkoutRef = undefined;
    const prefix = join(temp, 'npm-global');
    mkdirSync(join(temp, 'home'));
    mkdirSync(join(temp, 'runner'));
    return runJob(job, {
      github: githubContext(eventName, event, api.url),
      secrets: { ANTHROPIC_API_KEY: SECRET },
      // What `npm install -g` installs: this checkout (built), offline and without its build scripts.
      vars: { SMITH_PACKAGE: ROOT },
      workspace: repo.repo,
      runnerTemp: join(temp, 'runner'),
      env: {
        PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
        HOME: join(temp, 'home'),
        NO_COLOR: '1',
        npm_config_prefix: prefix,
        npm_config_offline: 'true',
        npm_config_ignore_scripts: 'true',
        SMITH_STORAGE: join(temp, 'storage'),
        ANTHROPIC_BASE_URL: llm.anthropicBaseUrl,
      },
      provided: new Set(['sandbox-setup']),
      uses: (step, inputs) => {
        if (step.uses!.startsWith('actions/checkout@')) checkoutRef = inputs.ref;
        else if (step.uses!.startsWith('actions/upload-artifact@')) artifacts.push({ name: inputs.name!, path: inputs.path! });
        else if (!step.uses!.startsWith('actions/setup-node@')) throw new Error(`no stand-in for ${step.uses}`);
      },
    });
  }

  const outcome = (result: JobResult, id: string) => result.steps.find((s) => s.step.id === id || s.step.name === id);
  const explain = (result: JobResult) => result.steps.map((s) => `${s.step.id ?? s.step.name ?? s.step.uses}: ${s.outcome}\n${s.stderr ?? ''}`).join('\n');

  test('a pull request: Smith runs sandboxed under the rules, the result and patch are posted as a comment, the log kept, exit 0', async () => {
    const repo = checkout();
    const before = llm.requests.length;
    llm.enqueue(
      { text: '<read_file>\n<path>src/greet.ts</path>\n</read_file>' },
      {
        text: `<write_to_file>\n<path>src/greet.ts</path>\n<content>\nexport const greet = () => "Hello!";\nexport const token = "${SECRET}";\n</content>\n</write_to_file>`,
      },
      {
        text: '<execute_command>\n<command>git diff --stat</command>\n<requires_approval>false</requires_approval>\n<timeout>170</timeout>\n</execute_command>',
      },
      { text: '<execute_command>\n<command>rm -rf src</command>\n<requires_approval>true</requires_approval>\n</execute_command>' },
      { text: '<attempt_completion>\n<result>Made the greeting friendlier. @octocat please look.</result>\n</attempt_completion>' },
    );
    const result = await runWorkflow('pull_request', pullRequestEvent(12), repo);
    assert.equal(result.result, 'success', explain(result));
    assert.equal(outcome(result, 'smith')!.code, 0);
    assert.equal(outcome(result, 'install')!.outcome, 'success', 'the workflow installed smith itself');

    const requests = llm.requests.slice(before);
    assert.equal(requests.length, 5);
    assert.equal(requests[0]!.headers.authorization, `Bearer ${SECRET}`, 'the secret reached the provider as the key');
    assert.match(lastUserText(requests[0]!), /Review the changes of this pull request/);
    assert.match(lastUserText(requests[0]!), /Pull request #12 "Friendlier greeting" \(greeting into main\)/);
    assert.match(lastUserText(requests[3]!), /src\/greet\.ts \| 3/, 'the allowed command ran (in the sandbox) and its output reached the model');
    assert.ok(existsSync(join(repo.repo, 'src/greet.ts')), 'a command no rule allows was not run: nobody could approve it');

    assert.equal(api.requests.length, 1);
    const [comment] = api.requests;
    assert.equal(comment!.method, 'POST');
    assert.equal(comment!.url, '/repos/acme/widgets/issues/12/comments');
    assert.equal(comment!.headers.authorization, `Bearer ${GITHUB_TOKEN}`);
    assert.equal(comment!.headers.accept, 'application/vnd.github+json');
    const body = comment!.body.body;
    assert.match(body, /Smith completed the task/);
    assert.match(body, /Made the greeting friendlier\. @\u200boctocat please look\./, 'mentions in the model text notify nobody');
    assert.match(body, /`M` `src\/greet\.ts`/);
    assert.match(body, /-export const greet = \(\) => "hi";\n\+export const greet = \(\) => "Hello!";/);
    assert.ok(!body.includes(SECRET), 'the key the model wrote into a file is redacted from the comment');
    assert.match(body, /\+export const token = "\[REDACTED\]";/);

    assert.deepEqual(
      artifacts.map((a) => a.name),
      ['smith-log'],
    );
    const dir = artifacts[0]!.path;
    assert.deepEqual(readdirSync(dir).sort(), ['comment.json', 'comment.md', 'smith-log.jsonl', 'smith.patch']);
    const lines = readFileSync(join(dir, 'smith-log.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(lines.at(-1).type, 'summary');
    assert.equal(lines.at(-1).success, true);
    assert.ok(lines.some((line) => line.type === 'event' && line.event.type === 'task_started'));
    assert.ok(!readFileSync(join(dir, 'smith.patch'), 'utf8').includes(SECRET));
    assert.equal(repo.git(['status', '--porcelain', '--', '.github']), '', 'the report stays out of the workspace');
  });

  test('a /smith comment on a pull request runs its text on that pull request; a failed task still comments and fails the job', async () => {
    const repo = checkout();
    const before = llm.requests.length;
    llm.enqueue({ fault: 'status', status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } });
    const result = await runWorkflow('issue_comment', commentEvent(7, '/smith rename greet to hello'), repo);
    assert.equal(result.result, 'failure', explain(result));
    assert.equal(checkoutRef, 'refs/pull/7/head');
    assert.equal(outcome(result, 'smith')!.outcome, 'failure');
    assert.equal(outcome(result, 'smith')!.code, 1);
    assert.match(lastUserText(llm.requests[before]!), /^<task>\nrename greet to hello\n\n\(Pull request #7 "Friendlier greeting"\.\)/);
    assert.equal(outcome(result, 'Post the result')!.outcome, 'success', 'posted although the task failed');
    const body = api.requests.at(-1)!.body.body;
    assert.equal(api.requests.at(-1)!.url, '/repos/acme/widgets/issues/7/comments');
    assert.match(body, /did not complete the task \(exit code 1\)/);
    assert.match(body, /No file changed\./);
    assert.equal(artifacts.length, 1, 'the log is kept although the task failed');
    const last = readFileSync(join(artifacts[0]!.path, 'smith-log.jsonl'), 'utf8').trim().split('\n').at(-1)!;
    assert.equal(JSON.parse(last).success, false);
  });

  test('the job runs only for pull requests of this repository and /smith comments of people who can write to it', () => {
    const runs = (eventName: string, event: object) => condition(job.if, { github: githubContext(eventName, event, 'http://x') }, { failed: false });
    assert.equal(runs('pull_request', pullRequestEvent(1)), true);
    assert.equal(runs('pull_request', pullRequestEvent(1, 'mallory/widgets')), false, 'a fork gets no secrets');
    assert.equal(runs('issue_comment', commentEvent(1, '/smith do it', 'OWNER')), true);
    assert.equal(runs('issue_comment', commentEvent(1, '/smith do it', 'COLLABORATOR')), true);
    assert.equal(runs('issue_comment', commentEvent(1, '/smith do it', 'CONTRIBUTOR')), false);
    assert.equal(runs('issue_comment', commentEvent(1, '/smith do it', 'NONE')), false);
    assert.equal(runs('issue_comment', commentEvent(1, 'thanks! /smith', 'OWNER')), false);
    assert.equal(runs('push', {}), false);
  });

  test('secrets reach only the step that needs them, no run line expands an expression, and the token cannot push', () => {
    for (const step of job.steps) if (step.run) assert.doesNotMatch(step.run, /\$\{\{/, `${step.name}: expressions go through env`);
    const smith = job.steps.find((s) => s.id === 'smith')!;
    assert.deepEqual(Object.keys(smith.env ?? {}), ['ANTHROPIC_API_KEY']);
    assert.match(smith.run!, /--sandbox/);
    for (const step of job.steps) if (step.id !== 'smith') assert.doesNotMatch(JSON.stringify(step.env ?? {}), /secrets\./);
    assert.deepEqual(workflow.permissions, { contents: 'read', issues: 'write', 'pull-requests': 'write' });
    const sandbox = job.steps.find((s) => s.id === 'sandbox-setup')!;
    assert.match(sandbox.run!, /apt-get install -y -qq bubblewrap/);
    assert.deepEqual(Object.keys(workflow.on).sort(), ['issue_comment', 'pull_request']);
  });
});
