// Runs a GitHub Actions job's steps on this machine as a runner would: the job's `if:`, each step's
// `if:` and `${{ }}` expressions (the subset of GitHub's expression language the example workflows
// use, with its loose, case-insensitive comparisons), the default variables, $GITHUB_OUTPUT, and
// `bash -e` for `run:`. `uses:` steps are handed to the test, which stands in for those actions.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Value = unknown;

/** One step of a workflow job, as the YAML holds it. */
export interface WorkflowStep {
  readonly id?: string;
  readonly name?: string;
  readonly if?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly shell?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, string>;
}

/** A job of a workflow, as the YAML holds it. */
export interface WorkflowJob {
  readonly if?: string;
  readonly env?: Record<string, string>;
  readonly steps: readonly WorkflowStep[];
}

/** What a step did: `skipped` when its `if:` was false. */
export interface StepResult {
  readonly step: WorkflowStep;
  readonly outcome: 'success' | 'failure' | 'skipped';
  readonly code?: number;
  readonly stdout?: string;
  readonly stderr?: string;
}

/** How the test runs a job: the `github` context, secrets, variables, the environment and the actions it stands in for. */
export interface JobRun {
  readonly github: Record<string, Value>;
  readonly secrets?: Record<string, string>;
  readonly vars?: Record<string, string>;
  /** The runner's own environment (PATH, HOME, the provider's base URL …); GitHub's variables are added. */
  readonly env: Record<string, string | undefined>;
  readonly workspace: string;
  /** The runner's scratch folder (RUNNER_TEMP); the job's own files go in it too. The test removes it. */
  readonly runnerTemp: string;
  /** Runs a `uses:` step with its evaluated `with:` inputs; throw to fail it. */
  readonly uses: (step: WorkflowStep, inputs: Record<string, string>) => void;
  /** Ids of `run:` steps the test provides for itself instead (what needs root or the network). */
  readonly provided?: ReadonlySet<string>;
  readonly timeoutMs?: number;
}

/** The outcome of a job: `skipped` when its `if:` was false. */
export interface JobResult {
  readonly result: 'success' | 'failure' | 'skipped';
  readonly steps: readonly StepResult[];
}

// ---- expressions -------------------------------------------------------------------------------

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|'((?:[^']|'')*)'|([A-Za-z_][\w-]*)|(==|!=|<=|>=|&&|\|\||[<>!().,[\]*]))/y;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) throw new Error(`cannot read the expression at "${text.slice(start)}"`);
    tokens.push(match[2] !== undefined ? `'${match[2]}` : match[1] !== undefined ? `#${match[1]}` : (match[3] ?? match[4]!));
  }
  return tokens;
}

const truthy = (value: Value) => !(value === false || value === 0 || value === '' || value === null || value === undefined || Number.isNaN(value));

function toNumber(value: Value): number {
  if (value === null || value === undefined || value === false || value === '') return 0;
  if (value === true) return 1;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return Number(value);
  return Number.NaN;
}

function looselyEqual(a: Value, b: Value): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === typeof b && (typeof a === 'object' || typeof a === 'boolean' || typeof a === 'number')) return a === b;
  return toNumber(a) === toNumber(b);
}

function asString(value: Value): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Evaluates one expression (without `${{ }}`) against the contexts; `status` answers success(), failure() and always(). */
export function evaluate(text: string, contexts: Record<string, Value>, status: { failed: boolean } = { failed: false }): Value {
  const tokens = tokenize(text);
  let at = 0;
  const peek = () => tokens[at];
  const take = (expected?: string) => {
    const token = tokens[at++];
    if (expected !== undefined && token !== expected) throw new Error(`expected ${expected} in "${text}", got ${token}`);
    return token!;
  };
  const functions: Record<string, (...args: Value[]) => Value> = {
    startsWith: (a, b) => asString(a).toLowerCase().startsWith(asString(b).toLowerCase()),
    endsWith: (a, b) => asString(a).toLowerCase().endsWith(asString(b).toLowerCase()),
    contains: (a, b) => (Array.isArray(a) ? a.some((item) => looselyEqual(item, b)) : asString(a).toLowerCase().includes(asString(b).toLowerCase())),
    fromJSON: (a) => JSON.parse(asString(a)),
    toJSON: (a) => JSON.stringify(a, null, 2),
    format: (pattern, ...args) => asString(pattern).replace(/\{(\d+)\}/g, (_, n: string) => asString(args[Number(n)])),
    success: () => !status.failed,
    failure: () => status.failed,
    always: () => true,
    cancelled: () => false,
  };
  const primary = (): Value => {
    const token = take();
    if (token === '(') {
      const value = or();
      take(')');
      return value;
    }
    if (token.startsWith("'")) return token.slice(1).replace(/''/g, "'");
    if (token.startsWith('#')) return Number(token.slice(1));
    if (token === 'true' || token === 'false') return token === 'true';
    if (token === 'null') return null;
    if (peek() === '(') {
      const fn = functions[token];
      if (!fn) throw new Error(`unknown function ${token}`);
      take('(');
      const args: Value[] = [];
      while (peek() !== ')') {
        args.push(or());
        if (peek() === ',') take(',');
      }
      take(')');
      return fn(...args);
    }
    if (!/^[A-Za-z_]/.test(token)) throw new Error(`unexpected ${token} in "${text}"`);
    let value: Value = contexts[token];
    for (;;) {
      if (peek() === '.') {
        take('.');
        const key = take();
        value = value !== null && typeof value === 'object' ? (value as Record<string, Value>)[key] : undefined;
      } else if (peek() === '[') {
        take('[');
        const key = or();
        take(']');
        value = value !== null && typeof value === 'object' ? (value as Record<string, Value>)[asString(key)] : undefined;
      } else break;
    }
    return value ?? null;
  };
  const comparison = (): Value => {
    const left = primary();
    const op = peek();
    if (op === '==' || op === '!=') {
      take();
      const equal = looselyEqual(left, primary());
      return op === '==' ? equal : !equal;
    }
    if (op === '<' || op === '>' || op === '<=' || op === '>=') {
      take();
      const [a, b] = [toNumber(left), toNumber(primary())];
      return op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
    }
    return left;
  };
  const unary = (): Value => {
    if (peek() === '!') {
      take();
      return !truthy(unary());
    }
    return comparison();
  };
  const and = (): Value => {
    let value = unary();
    while (peek() === '&&') {
      take();
      const right = unary();
      value = truthy(value) ? right : value;
    }
    return value;
  };
  function or(): Value {
    let value = and();
    while (peek() === '||') {
      take();
      const right = and();
      value = truthy(value) ? value : right;
    }
    return value;
  }
  const value = or();
  if (at !== tokens.length) throw new Error(`unexpected ${tokens[at]} in "${text}"`);
  return value;
}

/** A value with every `${{ expression }}` replaced by its result as text. */
export function substitute(text: string, contexts: Record<string, Value>): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expression: string) => asString(evaluate(expression, contexts)));
}

/** A condition as GitHub reads it: an `if:` without a status function means `success() && (…)`. */
export function condition(text: string | undefined, contexts: Record<string, Value>, status: { failed: boolean }): boolean {
  if (text === undefined) return !status.failed;
  const bare = text.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, '$1');
  const withStatus = /\b(?:success|failure|always|cancelled)\(/.test(bare) ? bare : `success() && (${bare})`;
  return truthy(evaluate(withStatus, contexts, status));
}

// ---- the job -----------------------------------------------------------------------------------

/** Reads `name=value` lines and `name<<EOF` blocks of a $GITHUB_OUTPUT file. */
function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      outputs[block[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  return outputs;
}

/** Runs a script (the servers the test runs keep answering meanwhile); a step over its time is killed. */
export function runScript(
  program: string,
  args: readonly string[],
  options: { cwd: string; timeoutMs: number; env: NodeJS.ProcessEnv },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(program, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${options.timeoutMs} ms]`;
      process.kill(-child.pid!, 'SIGKILL');
    }, options.timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** Runs the job's steps in order, as a runner would; resolves with each step's outcome. */
export async function runJob(job: WorkflowJob, run: JobRun): Promise<JobResult> {
  const steps: Record<string, { outputs: Record<string, string>; outcome: string; conclusion: string }> = {};
  const contexts: Record<string, Value> = { github: run.github, secrets: run.secrets ?? {}, vars: run.vars ?? {}, steps, env: {} };
  if (!condition(job.if, contexts, { failed: false })) return { result: 'skipped', steps: [] };
  const temp = mkdtempSync(join(run.runnerTemp, 'job-'));
  const eventPath = join(temp, 'event.json');
  writeFileSync(eventPath, JSON.stringify(run.github.event));
  const results: StepResult[] = [];
  const status = { failed: false };
  const jobEnv = Object.fromEntries(Object.entries(job.env ?? {}).map(([k, v]) => [k, substitute(String(v), contexts)]));
  contexts.env = jobEnv;
  for (const [index, step] of job.steps.entries()) {
    if (!condition(step.if, contexts, status)) {
      results.push({ step, outcome: 'skipped' });
      if (step.id) steps[step.id] = { outputs: {}, outcome: 'skipped', conclusion: 'skipped' };
      continue;
    }
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), contexts)]));
    let result: StepResult;
    let outputs: Record<string, string> = {};
    if (step.uses) {
      const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), contexts)]));
      try {
        run.uses(step, inputs);
        result = { step, outcome: 'success' };
      } catch (error) {
        result = { step, outcome: 'failure', stderr: String(error) };
      }
    } else if (step.id && run.provided?.has(step.id)) {
      result = { step, outcome: 'success' };
    } else {
      if (step.run === undefined) throw new Error(`step ${step.name ?? index} has neither run nor uses`);
      if (/\$\{\{/.test(step.run)) throw new Error(`step ${step.name ?? index}: the run script holds an expression; pass it through env instead`);
      const script = join(temp, `step-${index}.sh`);
      const outputFile = join(temp, `output-${index}`);
      writeFileSync(script, step.run);
      writeFileSync(outputFile, '');
      writeFileSync(join(temp, `env-${index}`), '');
      const [program, ...flags] = step.shell === 'bash' ? ['bash', '--noprofile', '--norc', '-eo', 'pipefail'] : ['bash', '-e'];
      const repository = asString(run.github.repository);
      const child = await runScript(program!, [...flags, script], {
        cwd: run.workspace,
        timeoutMs: run.timeoutMs ?? 180_000,
        env: {
          ...run.env,
          CI: 'true',
          GITHUB_ACTIONS: 'true',
          GITHUB_EVENT_NAME: asString(run.github.event_name),
          GITHUB_EVENT_PATH: eventPath,
          GITHUB_REPOSITORY: repository,
          GITHUB_API_URL: asString(run.github.api_url),
          GITHUB_SERVER_URL: 'https://github.com',
          GITHUB_WORKSPACE: run.workspace,
          GITHUB_OUTPUT: outputFile,
          GITHUB_ENV: join(temp, `env-${index}`),
          RUNNER_TEMP: run.runnerTemp,
          RUNNER_OS: 'Linux',
          ...jobEnv,
          ...stepEnv,
        },
      });
      outputs = readOutputs(outputFile);
      result = { step, outcome: child.status === 0 ? 'success' : 'failure', code: child.status ?? 1, stdout: child.stdout, stderr: child.stderr };
    }
    results.push(result);
    if (result.outcome === 'failure') status.failed = true;
    if (step.id) steps[step.id] = { outputs, outcome: result.outcome, conclusion: result.outcome };
  }
  return { result: status.failed ? 'failure' : 'success', steps: results };
}
