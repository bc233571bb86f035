#!/usr/bin/env node
// Runs one Smith task in CI and leaves what a pipeline needs behind: the stream-json log, the patch
// of what the task changed, and a Markdown report to post on the pull request. Node only, no
// packages, so any CI that runs Smith runs this too (docs/ci.md). GitHub Actions is recognised by
// its variables: the task may come from a `/smith …` comment and the step's outputs are written.
//
//   node smith-ci.mjs [--task TEXT] [--out DIR] [--] [smith flags…]
//
// The task: --task, else the text after `/smith` in the comment of an issue_comment event
// ($GITHUB_EVENT_PATH), else $SMITH_TASK. The flags after `--` go to smith unchanged; this script
// adds `--output stream-json`. The exit code is smith's (0: the task completed; 1: it failed or hit
// a limit; 2: a usage error), or 1 when smith could not start.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';

/** GitHub refuses a comment body over 65,536 characters; the report stays well under it. */
const MAX_PATCH_CHARS = 40_000;
const MAX_RESULT_CHARS = 12_000;
const MAX_TASK_CHARS = 1_000;
const MAX_FILES_LISTED = 100;
/** Variables whose values are secrets wherever they appear (the same rule Smith's own redactor uses, plus …_SECRET and …_PASSWORD). */
const SECRET_VARIABLE = /_(?:KEY|TOKEN|SECRET|PASSWORD)$/;
const REDACTED = '[REDACTED]';

function usage(message) {
  process.stderr.write(`smith-ci: ${message}\nUsage: node smith-ci.mjs [--task TEXT] [--out DIR] [--] [smith flags…]\n`);
  process.exit(2);
}

/** --task and --out, then everything after `--` (or the first other word) for smith. */
function parseArguments(argv) {
  const options = { smithArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      options.smithArgs = argv.slice(i + 1);
      break;
    }
    if (arg === '--task' || arg === '--out') {
      if (i + 1 >= argv.length) usage(`${arg} needs a value`);
      options[arg.slice(2)] = argv[++i];
      continue;
    }
    options.smithArgs = argv.slice(i);
    break;
  }
  if (options.smithArgs.some((a) => a === '--output' || a.startsWith('--output='))) usage('smith-ci sets --output stream-json itself; leave --output out');
  return options;
}

/** The event GitHub Actions describes in $GITHUB_EVENT_PATH, or undefined outside it. */
function githubEvent(env) {
  if (!env.GITHUB_EVENT_PATH) return undefined;
  try {
    return JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
  } catch (error) {
    usage(`cannot read the event in GITHUB_EVENT_PATH (${env.GITHUB_EVENT_PATH}): ${error.message}`);
  }
}

/** The text after `/smith` at the start of a comment, or undefined when the comment does not ask for Smith. */
function commentTask(body) {
  const match = /^\s*\/smith(?:\s+([\s\S]*))?$/.exec(body ?? '');
  return match ? (match[1] ?? '').trim() : undefined;
}

/** The issue or pull request the event is about: its number and a line that tells the model where it runs. */
function eventSubject(event) {
  const pr = event?.pull_request;
  if (pr?.number) return { number: pr.number, context: `Pull request #${pr.number} "${pr.title ?? ''}" (${pr.head?.ref ?? '?'} into ${pr.base?.ref ?? '?'}).` };
  const issue = event?.issue;
  if (issue?.number) return { number: issue.number, context: `${issue.pull_request ? 'Pull request' : 'Issue'} #${issue.number} "${issue.title ?? ''}".` };
  return undefined;
}

/** Replaces the value of every secret-named variable that is set (8 characters or more) in text. */
function redactorOf(env) {
  const secrets = Object.entries(env)
    .filter(([name, value]) => SECRET_VARIABLE.test(name) && typeof value === 'string' && value.trim().length >= 8)
    .map(([, value]) => value)
    .sort((a, b) => b.length - a.length);
  return (text) => secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text);
}

/** Runs smith, writing its stdout to the log as it comes; resolves with its exit code and its summary line. */
function runSmith(command, args, logFile, env) {
  return new Promise((resolveRun) => {
    const log = createWriteStream(logFile);
    let summary;
    let pending = '';
    const child = spawn(command.file, [...command.args, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env });
    child.stdout.on('data', (chunk) => {
      log.write(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) summary = summaryOf(line) ?? summary;
    });
    const finish = (code, startError) => log.end(() => resolveRun({ code, summary: summaryOf(pending) ?? summary, ...(startError ? { startError } : {}) }));
    child.on('error', (error) => finish(1, error.code === 'ENOENT' ? `${command.file} is not installed (not found on PATH)` : error.message));
    child.on('close', (code, signal) => finish(code ?? 1, signal ? `smith was stopped by ${signal}` : undefined));
  });
}

function summaryOf(line) {
  if (!line.trim()) return undefined;
  try {
    const parsed = JSON.parse(line);
    return parsed?.type === 'summary' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** What the working tree holds against HEAD, new files included, read through a scratch index so the real one is untouched. */
function workingTreePatch(cwd, outDir) {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('GIT_')) delete env[name];
  const git = (args, extra = {}) =>
    spawnSync('git', ['-c', 'core.quotepath=off', ...args], { cwd, env: { ...env, ...extra }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const top = git(['rev-parse', '--show-toplevel']);
  if (top.status !== 0) return { files: [], text: '', note: 'not a git repository: no patch' };
  const scratch = mkdtempSync(join(tmpdir(), 'smith-ci-index-'));
  try {
    const index = { GIT_INDEX_FILE: join(scratch, 'index') };
    const head = git(['rev-parse', '--verify', '--quiet', 'HEAD']).status === 0;
    if (head) git(['read-tree', 'HEAD'], index);
    // The report's own folder is never part of the change, wherever it was put.
    const inside = relative(top.stdout.trim(), outDir);
    const exclude = inside && !inside.startsWith('..') && !isAbsolute(inside) ? [`:(top,exclude)${inside}`] : [];
    const added = git(['add', '-A', '--', ':(top)', ...exclude], index);
    if (added.status !== 0) return { files: [], text: '', note: `git add failed: ${added.stderr.trim()}` };
    const base = head ? ['HEAD'] : [];
    const flags = ['--cached', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames'];
    const names = git(['diff', ...flags, '--name-status', '-z', ...base], index).stdout.split('\0');
    const files = [];
    for (let i = 0; i + 1 < names.length; i += 2) if (names[i]) files.push({ status: names[i], path: names[i + 1] });
    return { files, text: git(['diff', ...flags, '--binary', ...base], index).stdout, note: '' };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A code fence longer than any run of backticks in the text, so the text cannot close it. */
function fenceFor(text) {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

function cut(text, max, what) {
  return text.length <= max ? text : `${text.slice(0, max)}\n[… ${what} cut at ${max} characters; the whole of it is in the log artifact]`;
}

/** Keeps `@name` in the model's text from notifying people or teams. */
function noMentions(text) {
  return text.replace(/(^|[^\w`])@(?=[A-Za-z0-9])/g, '$1@\u200b');
}

/** The Markdown report: outcome, the model's result, the changed files and the patch. */
function report({ task, run, patch, logName }) {
  const { summary } = run;
  const completed = run.code === 0 && summary?.success === true;
  const lines = ['<!-- smith-ci -->', `### Smith ${completed ? 'completed the task' : `did not complete the task (exit code ${run.code})`}`, ''];
  lines.push(
    ...cut(task, MAX_TASK_CHARS, 'the task')
      .split('\n')
      .map((line) => `> ${noMentions(line)}`),
    '',
  );
  const result = summary?.result || summary?.error || run.startError || (summary ? '' : 'smith printed no summary.');
  if (result) lines.push(noMentions(cut(result, MAX_RESULT_CHARS, 'the result')), '');
  if (patch.note) lines.push(`_${patch.note}_`, '');
  if (patch.files.length === 0) lines.push('No file changed.');
  else {
    lines.push(`**Changed files (${patch.files.length})**`, '');
    for (const file of patch.files.slice(0, MAX_FILES_LISTED)) lines.push(`- \`${file.status}\` ${'`'}${file.path.replace(/`/g, "'")}${'`'}`);
    if (patch.files.length > MAX_FILES_LISTED) lines.push(`- … and ${patch.files.length - MAX_FILES_LISTED} more`);
    const shown = cut(patch.text, MAX_PATCH_CHARS, 'the patch');
    const fence = fenceFor(shown);
    lines.push('', '<details><summary>Patch</summary>', '', `${fence}diff`, shown.replace(/\n$/, ''), fence, '', '</details>');
  }
  const meta = summary?.metadata;
  if (meta) {
    const tokens = meta.tokensUsed ? `${meta.tokensUsed.input} in / ${meta.tokensUsed.output} out tokens` : '';
    const cost = typeof meta.cost === 'number' ? `$${meta.cost.toFixed(4)}` : 'cost unknown';
    lines.push(
      '',
      `<sub>${[`${meta.totalIterations} model requests`, tokens, cost, `${Math.round((meta.durationMs ?? 0) / 1000)} s`, `log: ${logName}`].filter(Boolean).join(' · ')}</sub>`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Adds `name=value` lines to $GITHUB_OUTPUT, where a later step reads them as steps.<id>.outputs.<name>. */
function writeOutputs(env, outputs) {
  if (!env.GITHUB_OUTPUT) return;
  appendFileSync(
    env.GITHUB_OUTPUT,
    Object.entries(outputs)
      .map(([name, value]) => `${name}=${String(value).replace(/[\r\n]/g, ' ')}\n`)
      .join(''),
  );
}

/** `smith` on PATH, or $SMITH_BIN (a program, or a .js file run with this Node). */
function smithCommand(env) {
  const bin = env.SMITH_BIN || 'smith';
  return /\.[cm]?js$/.test(bin) ? { file: process.execPath, args: [bin] } : { file: bin, args: [] };
}

async function main() {
  const env = process.env;
  const options = parseArguments(process.argv.slice(2));
  const event = githubEvent(env);
  const fromComment = event?.comment ? commentTask(event.comment.body) : undefined;
  if (event?.comment && fromComment === undefined) usage('the comment does not start with /smith');
  const asked = options.task ?? (fromComment || env.SMITH_TASK || '');
  if (!asked.trim()) usage('no task: give --task TEXT, a `/smith TEXT` comment, or SMITH_TASK');
  const subject = eventSubject(event);
  const task = subject ? `${asked.trim()}\n\n(${subject.context})` : asked.trim();
  const outDir = resolve(options.out ?? join(env.RUNNER_TEMP || tmpdir(), 'smith-ci'));
  mkdirSync(outDir, { recursive: true });
  const files = {
    dir: outDir,
    log: join(outDir, 'smith-log.jsonl'),
    patch: join(outDir, 'smith.patch'),
    comment: join(outDir, 'comment.md'),
    'comment-json': join(outDir, 'comment.json'),
  };
  const run = await runSmith(smithCommand(env), [...options.smithArgs, '--output', 'stream-json', '--', task], files.log, env);
  const redact = redactorOf(env);
  const patch = workingTreePatch(process.cwd(), outDir);
  const safePatch = { ...patch, text: redact(patch.text) };
  writeFileSync(files.patch, safePatch.text);
  const body = redact(report({ task: asked.trim(), run, patch: safePatch, logName: 'smith-log.jsonl' }));
  writeFileSync(files.comment, body);
  writeFileSync(files['comment-json'], `${JSON.stringify({ body })}\n`);
  writeOutputs(env, { ...files, 'exit-code': run.code, success: run.code === 0, number: subject?.number ?? '', 'changed-files': patch.files.length });
  process.stderr.write(`smith-ci: exit code ${run.code}; ${patch.files.length} changed file(s); log ${files.log}; report ${files.comment}\n`);
  if (run.startError) process.stderr.write(`smith-ci: ${run.startError}\n`);
  process.exitCode = run.code;
}

await main();
