import { parseArgs } from 'node:util';
import type { ProviderId, ToolProtocol } from '../core/providers/types.js';
import type { PlanAct } from '../shared/plan-act.js';
import type { ModelInfoOverrides } from '../core/providers/model-catalog.js';
import { parseRule } from '../core/permissions/rule-syntax.js';
import { hostAllowListProblems } from '../core/process/host-allow-list.js';
import { isProviderId, PROVIDER_IDS, PROVIDERS } from '../shared/providers.js';
import { InvalidTaskIdError, taskIdProblem } from '../shared/task-id.js';
import type { WebToolSettings } from '../core/browser/browser-settings.js';
import { WEB_FLAG_OPTIONS, WEB_FLAGS_HELP, webSettingsFromFlags } from './web-flags.js';

/** The CLI's options after validation. */
export interface CliOptions {
  /** The task to run; with --resume, the new message the resumed task continues with. */
  readonly task?: string;
  readonly cwd: string;
  /** --add-dir DIR (repeatable): more folders of the workspace beside --cwd. */
  readonly addDirs: readonly string[];
  /** --skill-dir DIR (repeatable): more folders of Agent Skills, before the usual ones. */
  readonly skillDirs: readonly string[];
  readonly provider?: ProviderId;
  /** --profile NAME: an API profile from the user's settings file; the flags win over its fields. */
  readonly profile?: string;
  /** --plan-profile / --act-profile NAME: the API profile a mode runs with (its provider, model and key). */
  readonly modeProfiles: { readonly plan?: string; readonly act?: string };
  /** --condense-profile NAME / --condense-model ID: who writes the summary when the history is condensed. */
  readonly condenseProfile?: string;
  readonly condenseModel?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly reasoningEffort?: 'low' | 'medium' | 'high';
  /** xml (default) or the vendor's native tool calling. */
  readonly toolProtocol?: ToolProtocol;
  /** For models the catalogue does not know (openai-compatible): window and prices per million tokens. */
  readonly modelOverrides: ModelInfoOverrides;
  /** --idle-timeout in milliseconds: a request receiving no byte for this long is retried; 0 turns it off. */
  readonly idleTimeoutMs?: number;
  readonly yes: boolean;
  readonly autoApprove: readonly AutoApproveFlag[];
  readonly allowOutsideWorkspace: boolean;
  /** --max-auto-approvals N: after N auto-approved calls in a row, ask once anyway (0: no cap). */
  readonly maxConsecutive: number;
  /** --max-subagents N: sub-agents (use_subagents) running at once. */
  readonly maxSubagents: number;
  /** --plan / --act: Plan or Act (default Act). */
  readonly mode: PlanAct;
  /** Plan or Act was chosen on the command line (a resumed task switches to it). */
  readonly planActGiven: boolean;
  /** --mode NAME (or the older --skill NAME): the mode to run in; `plan`/`act` are read as Plan/Act while no mode has that slug (see mode-choice.ts). */
  readonly modeSlug?: string;
  /** Lines for stderr about deprecated flags that were used. */
  readonly deprecations: readonly string[];
  readonly mcpConfig?: string;
  /** Start the workspace's .smith/mcp.json servers without asking. */
  readonly trustWorkspace: boolean;
  readonly output: 'human' | 'json' | 'stream-json';
  readonly maxIterations: number;
  /** --max-repeats N: identical calls in a row before the model is told, and then the user asked (0: never). */
  readonly maxRepeatedCalls?: number;
  /** --max-cost USD: stop (and ask, on a terminal) when the task has cost this much. */
  readonly maxCost?: number;
  /** --auto-condense PERCENT: condense the history when a request fills this much of the window. */
  readonly autoCondenseAt?: number;
  /** --auto-condense TOKENS: condense the history when a request holds this many tokens. */
  readonly autoCondenseTokens?: number;
  readonly storage?: string;
  readonly resume?: string;
  readonly verbose: boolean;
  readonly quiet: boolean;
  readonly help: boolean;
  readonly version: boolean;
  /** Print the models the provider offers and exit. */
  readonly listModels: boolean;
  /** --no-checkpoints: take no checkpoints of the workspace. */
  readonly checkpoints: boolean;
  /** --allow RULE / --deny RULE / --ask RULE (repeatable): permission rules for this run. */
  readonly permissions: readonly { readonly effect: 'allow' | 'ask' | 'deny'; readonly rule: string }[];
  /** --sandbox: every command runs under bubblewrap; --sandbox-network lets them reach the network, --sandbox-allow-host only these hosts. */
  readonly sandbox: boolean;
  readonly sandboxNetwork: boolean;
  readonly sandboxAllowedHosts: readonly string[];
  /** --browser-*, --web-deny: the browser browser_action drives and the hosts the web tools refuse. */
  readonly web: WebToolSettings;
  /** --dry-run: files are not written; the changes are printed as a patch (or written to patchFile). */
  readonly dryRun: boolean;
  readonly patchFile?: string;
  /** --input stream-json: messages, approvals and answers arrive as JSON lines on stdin. */
  readonly input: 'text' | 'stream-json';
  /** --image FILE (repeatable): images sent with the task or the resume message. */
  readonly images: readonly string[];
}

/** A mistake in how the CLI was called (exit code 2). */
export class UsageError extends Error {}

/** A task id given on the command line, or a UsageError saying what is wrong with it (see shared/task-id.ts). */
export function taskIdArgument(value: string, where: string): string {
  const problem = taskIdProblem(value);
  if (problem !== undefined) throw new UsageError(`${where}: ${new InvalidTaskIdError(value, problem).message}`);
  return value;
}

/** Subcommands take their own flags (`smith mcp-serve --help` is not the main help); cli-main.ts runs them. */
export const SUBCOMMANDS: readonly string[] = ['mcp-serve', 'mcp', 'checkpoints', 'rewind', 'replay', 'models'];

/** The switches of the auto-approve policy, as named on the command line. */
const AUTO_APPROVE_FLAGS = ['read', 'edit', 'safe-commands', 'commands', 'mcp', 'browser'] as const;
type AutoApproveFlag = (typeof AUTO_APPROVE_FLAGS)[number];

export const USAGE = `Usage: smith [options] [task]
       smith [options] --resume TASK_ID [message]
       smith mcp-serve [--cwd DIR] [provider options]   (Smith as an MCP server on stdio)
       smith mcp search|add|remove|list …               (MCP Registry servers and your MCP settings)
       smith checkpoints TASK_ID [--output json]         (a task's checkpoints)
       smith rewind TASK_ID CHECKPOINT_ID [--files-only | --conversation-only] [--force]
       smith models refresh [URL | FILE]                 (fetch a model catalogue: newer models' facts)
       smith replay TASK_ID [--model ID] [--provider NAME] [--mode NAME] [--rules FILE] [--output json]
       smith replay --batch FILE [--concurrency N]   (run stored tasks again in a scratch copy; compare)

Runs one task when a task is given (or piped on stdin); with no task on a terminal, starts a REPL.

Options:
  --cwd DIR                  workspace folder (default: the current folder)
  --add-dir DIR              another workspace folder (repeatable); inside the workspace like
                             --cwd, its files addressed as <folder name>/path
  --skill-dir DIR            a folder of Agent Skills (<DIR>/<name>/SKILL.md) for this run
                             (repeatable); its skills come before the usual folders'
  --provider NAME            ${PROVIDER_IDS.join(' | ')}
  --profile NAME             an API profile from "profiles" in <storage>/settings.json (or
                             SMITH_PROFILE); the flags win over its fields
  --plan-profile NAME        the API profile Plan mode runs with (provider, model, key), e.g. a
                             stronger model to plan and a cheaper one to act; also "planProfile"
                             in <storage>/settings.json
  --act-profile NAME         the API profile Act mode runs with; also "actProfile" there
  --model ID                 model id (required for openai-compatible)
  --base-url URL             API base URL (e.g. http://127.0.0.1:11434/v1 for Ollama)
  --reasoning-effort LEVEL   low | medium | high: extended thinking where the model supports it
  --tool-protocol xml|native how the model calls tools: XML blocks in its text (default, any
                             model) or the vendor's native tool calling
  --context-window N         the model's context window in tokens (for openai-compatible models)
  --vision                   the model takes images (for models the catalogue does not know)
  --image FILE               send an image (PNG, JPEG, GIF or WebP, up to 5 MB) with the task or
                             the --resume message; repeatable; needs a model that takes images
  --input-price USD          price per million input tokens (for cost; openai-compatible)
  --output-price USD         price per million output tokens
  --idle-timeout SECONDS     give up on a model request that receives nothing for this long
                             (before the response starts or mid-stream) and retry it
                             (default 60; 0 turns it off)
  --yes                      approve every tool call inside the workspace
  --auto-approve LIST        approve only these without asking, comma-separated:
                             read, edit, safe-commands, commands, mcp, browser (default: read)
  --allow-outside-workspace  also auto-approve paths outside the workspace
  --max-subagents N          sub-agents the model may run at once with use_subagents (default 3)
  --max-auto-approvals N     after N calls in a row approved without asking, ask once anyway
                             (counted over the task's log, so a resumed task goes on counting)
  --plan, --act              start in Plan mode (read and discuss) or Act mode (default)
  --mode NAME                the mode: code (default), architect, ask, orchestrator, or your own
                             (.smith/modes); --skill NAME is the older spelling
  --output human|json|stream-json
                             human progress on stderr (default), one JSON object on stdout, or
                             one JSON object per line as things happen (see the README)
${WEB_FLAGS_HELP}
  --allow RULE, --deny RULE, --ask RULE
                             permission rules, repeatable: Bash(npm test), Bash(git diff:*),
                             Edit(src/**), Read(./.env), mcp__github__create_issue; deny always
                             wins, also over --yes (see docs/permissions.md)
  --sandbox                  run every command under bubblewrap: the workspace writable (but for
                             git hooks and config, .smith, .claude, .vscode, .husky), the rest
                             read-only, a private /tmp, no network, no Unix sockets, .smithignore'd
                             paths hidden; without bubblewrap every command is asked for
  --sandbox-network          let sandboxed commands use the network
  --sandbox-allow-host HOST  let sandboxed commands reach this host only (repeatable; *.example.com
                             for its subdomains), through a proxy for HTTP(S)_PROXY-aware tools
  --dry-run                  write no file: the edits are printed as one unified diff on stdout
                             (or to --patch-file FILE); commands are not run
  --patch-file FILE          where --dry-run writes its patch
  --input text|stream-json   answer approvals and questions on stdin as text (default), or as
                             JSON lines, which may also send messages (see the README)
  --max-iterations N         stop after N model requests (default 25); on a terminal, Smith asks
                             whether to go on for another N
  --max-repeats N            after N identical tool calls in a row (or N failing the same way)
                             the model is told to change course; one more and Smith asks
                             whether to let it go on (no one to ask: the task stops); default 3,
                             0 turns it off
  --max-cost USD             stop when the task, its sub-agents and its new_task hand-overs have
                             cost this much together; needs the model's prices (an error without
                             them); on a terminal, Smith asks whether to go on for another USD
  --auto-condense PERCENT|TOKENS
                             condense the history when a request fills this share of the model's
                             context window ("60%" or 60; default 80), or holds this many tokens
                             (120000 or 120k: a fixed size, whatever the window); large old tool
                             results are shortened first
  --condense-model ID        write the summaries with this model (same provider) instead of the
                             task's own; --condense-profile NAME: with an API profile's
  --storage DIR              where task logs are kept (default: a per-user folder)
  --mcp-config FILE          an extra MCP servers file ({"mcpServers": {...}}), besides
                             <storage>/mcp_settings.json and .smith/mcp.json
  --trust-workspace          start the servers of this workspace's .smith/mcp.json, use its
                             .smith/settings.json allow rules and hooks, and offer its skills,
                             without asking (otherwise smith asks once on a terminal, or skips them)
  --resume TASK_ID [message] continue a stored task from its log: where it stopped, or (finished
                             or not) with a new message
  --no-checkpoints           take no checkpoints of the workspace (they are kept in the storage
                             folder, after every step that changed files; see smith checkpoints)
  --verbose                  show tool output and reasoning
  --quiet                    print only the result
  --list-models              print the provider's models (from the endpoint's /models, or the catalogue) and exit
  -h, --help                 show this help
  -v, --version              print the version

API keys come from ${PROVIDERS.filter((p) => p.keyEnvVar !== '')
  .map((p) => (p.id === 'openai-compatible' ? `${p.keyEnvVar} (${p.id})` : p.keyEnvVar))
  .join(', ')}.`;

/** Reads the flags themselves; node's own message about a bad flag becomes a UsageError. */
function parseFlags(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        cwd: { type: 'string' },
        'add-dir': { type: 'string', multiple: true },
        'skill-dir': { type: 'string', multiple: true },
        provider: { type: 'string' },
        profile: { type: 'string' },
        'plan-profile': { type: 'string' },
        'condense-profile': { type: 'string' },
        'condense-model': { type: 'string' },
        'act-profile': { type: 'string' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        'reasoning-effort': { type: 'string' },
        'tool-protocol': { type: 'string' },
        'context-window': { type: 'string' },
        'input-price': { type: 'string' },
        'output-price': { type: 'string' },
        'idle-timeout': { type: 'string' },
        yes: { type: 'boolean', default: false },
        'auto-approve': { type: 'string' },
        plan: { type: 'boolean', default: false },
        act: { type: 'boolean', default: false },
        mode: { type: 'string' },
        skill: { type: 'string' },
        'mcp-config': { type: 'string' },
        'trust-workspace': { type: 'boolean', default: false },
        'allow-outside-workspace': { type: 'boolean', default: false },
        'max-auto-approvals': { type: 'string', default: '0' },
        'max-subagents': { type: 'string', default: '3' },
        output: { type: 'string', default: 'human' },
        'max-iterations': { type: 'string', default: '25' },
        'max-cost': { type: 'string' },
        'max-repeats': { type: 'string' },
        'auto-condense': { type: 'string' },
        storage: { type: 'string' },
        resume: { type: 'string' },
        verbose: { type: 'boolean', default: false },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        'list-models': { type: 'boolean', default: false },
        'no-checkpoints': { type: 'boolean', default: false },
        image: { type: 'string', multiple: true },
        input: { type: 'string', default: 'text' },
        'dry-run': { type: 'boolean', default: false },
        sandbox: { type: 'boolean', default: false },
        'sandbox-network': { type: 'boolean', default: false },
        'sandbox-allow-host': { type: 'string', multiple: true },
        allow: { type: 'string', multiple: true },
        deny: { type: 'string', multiple: true },
        ask: { type: 'string', multiple: true },
        'patch-file': { type: 'string' },
        vision: { type: 'boolean', default: false },
        ...WEB_FLAG_OPTIONS,
        version: { type: 'boolean', short: 'v', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Parses argv (without node and script); throws UsageError on a bad call. */
export function parseCliArgs(argv: readonly string[], currentDir: string): CliOptions {
  const { values, positionals } = parseFlags(argv);
  const provider = values.provider;
  if (provider !== undefined && !isProviderId(provider)) {
    throw new UsageError(`--provider must be one of ${PROVIDER_IDS.join(', ')}; got "${provider}"`);
  }
  if (values.output !== 'human' && values.output !== 'json' && values.output !== 'stream-json') {
    throw new UsageError(`--output must be human, json or stream-json; got "${values.output}"`);
  }
  const maxIterations = Number(values['max-iterations']);
  if (!Number.isInteger(maxIterations) || maxIterations < 1) {
    throw new UsageError(`--max-iterations must be a positive whole number; got "${values['max-iterations']}"`);
  }
  if (values.plan && values.act) throw new UsageError('--plan and --act cannot be used together');
  const deprecations: string[] = [];
  if (values.skill !== undefined) {
    if (values.mode !== undefined && values.mode !== values.skill) throw new UsageError('--skill is the older spelling of --mode; give one of them');
    deprecations.push('--skill is deprecated and will be removed in the next release; use --mode NAME');
  }
  const modeSlug = values.mode ?? values.skill;
  if (modeSlug !== undefined && modeSlug.trim() === '') throw new UsageError('--mode needs a mode name (code, architect, ask, or your own)');
  const autoApprove = (values['auto-approve'] ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const unknownFlag = autoApprove.find((f) => !AUTO_APPROVE_FLAGS.includes(f as AutoApproveFlag));
  if (unknownFlag) throw new UsageError(`--auto-approve accepts ${AUTO_APPROVE_FLAGS.join(', ')}; got "${unknownFlag}"`);
  const effort = values['reasoning-effort'];
  if (effort !== undefined && effort !== 'low' && effort !== 'medium' && effort !== 'high') {
    throw new UsageError(`--reasoning-effort must be low, medium or high; got "${effort}"`);
  }
  const toolProtocol = values['tool-protocol'];
  if (toolProtocol !== undefined && toolProtocol !== 'xml' && toolProtocol !== 'native') {
    throw new UsageError(`--tool-protocol must be xml or native; got "${toolProtocol}"`);
  }
  const modelOverrides: ModelInfoOverrides = {
    ...positiveNumber(values['context-window'], '--context-window', 'contextWindow', true),
    ...positiveNumber(values['input-price'], '--input-price', 'inputPrice', false),
    ...positiveNumber(values['output-price'], '--output-price', 'outputPrice', false),
    ...(values.vision ? { supportsImages: true } : {}),
  };
  const idleTimeout = values['idle-timeout'];
  const idleSeconds = Number(idleTimeout);
  if (idleTimeout !== undefined && (idleTimeout.trim() === '' || !Number.isFinite(idleSeconds) || idleSeconds < 0)) {
    throw new UsageError(`--idle-timeout must be a number of seconds (0 turns it off); got "${idleTimeout}"`);
  }
  if (values.input !== 'text' && values.input !== 'stream-json') throw new UsageError(`--input must be text or stream-json; got "${values.input}"`);
  if (values['patch-file'] && !values['dry-run']) throw new UsageError('--patch-file goes with --dry-run');
  if (values['dry-run'] && values.output !== 'human' && !values['patch-file'])
    throw new UsageError(`--dry-run with --output ${values.output} needs --patch-file FILE: stdout carries the JSON`);
  if (values.verbose && values.quiet) throw new UsageError('--verbose and --quiet cannot be used together');
  const web = webSettingsFromFlags(values);
  if (typeof web === 'string') throw new UsageError(web);
  const task = positionals.join(' ').trim();
  return {
    ...(task ? { task } : {}),
    cwd: values.cwd ?? currentDir,
    addDirs: values['add-dir'] ?? [],
    skillDirs: values['skill-dir'] ?? [],
    ...(provider ? { provider: provider as ProviderId } : {}),
    ...(values.profile ? { profile: values.profile } : {}),
    modeProfiles: { ...(values['plan-profile'] ? { plan: values['plan-profile'] } : {}), ...(values['act-profile'] ? { act: values['act-profile'] } : {}) },
    ...(values.model ? { model: values.model } : {}),
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
    ...(effort ? { reasoningEffort: effort } : {}),
    ...(toolProtocol ? { toolProtocol } : {}),
    modelOverrides,
    ...(idleTimeout !== undefined ? { idleTimeoutMs: Math.round(idleSeconds * 1000) } : {}),
    yes: values.yes!,
    autoApprove: autoApprove as AutoApproveFlag[],
    mode: values.plan ? 'plan' : 'act',
    planActGiven: values.plan! || values.act!,
    ...(modeSlug !== undefined ? { modeSlug } : {}),
    deprecations,
    ...(values['mcp-config'] ? { mcpConfig: values['mcp-config'] } : {}),
    trustWorkspace: values['trust-workspace']!,
    allowOutsideWorkspace: values['allow-outside-workspace']!,
    maxConsecutive: wholeCount(values['max-auto-approvals']!, '--max-auto-approvals'),
    maxSubagents: Math.max(1, wholeCount(values['max-subagents']!, '--max-subagents')),
    output: values.output,
    maxIterations,
    ...repeatLimit(values['max-repeats']),
    ...positiveCost(values['max-cost']),
    ...condenseTrigger(values['auto-condense']),
    ...(values['condense-profile'] ? { condenseProfile: values['condense-profile'] } : {}),
    ...(values['condense-model'] ? { condenseModel: values['condense-model'] } : {}),
    ...(values.storage ? { storage: values.storage } : {}),
    ...(values.resume !== undefined ? { resume: taskIdArgument(values.resume, '--resume') } : {}),
    verbose: values.verbose!,
    quiet: values.quiet!,
    help: values.help!,
    listModels: values['list-models']!,
    checkpoints: !values['no-checkpoints'],
    images: values.image ?? [],
    input: values.input,
    dryRun: values['dry-run']!,
    sandbox: values.sandbox!,
    sandboxNetwork: values['sandbox-network']!,
    sandboxAllowedHosts: checkedHosts(values['sandbox-allow-host'] ?? []),
    web,
    permissions: (['deny', 'ask', 'allow'] as const).flatMap((effect) => (values[effect] ?? []).map((rule) => ({ effect, rule: checkedRule(rule, effect) }))),
    ...(values['patch-file'] ? { patchFile: values['patch-file'] } : {}),
    version: values.version!,
  };
}

/** A permission rule from the command line, checked so a typo is a usage error rather than a rule that never matches. */
function checkedRule(rule: string, effect: string): string {
  try {
    parseRule(rule);
  } catch (error) {
    throw new UsageError(`--${effect}: ${(error as Error).message}`);
  }
  return rule;
}

/** --sandbox-allow-host entries, checked so a typo is a usage error rather than a host never reached. */
function checkedHosts(hosts: readonly string[]): string[] {
  const problems = hostAllowListProblems(hosts);
  if (problems.length > 0) throw new UsageError(`--sandbox-allow-host: ${problems.join('; ')}`);
  return [...hosts];
}

/** --auto-condense: a percentage ("60%", or 10 to 100) or a token count (1000 or more; "120k"). */
function condenseTrigger(raw: string | undefined): { autoCondenseAt?: number; autoCondenseTokens?: number } {
  if (raw === undefined) return {};
  const text = raw.trim().toLowerCase();
  const tokens = /^(\d+(?:\.\d+)?)k$/.exec(text);
  const value = tokens ? Number(tokens[1]) * 1000 : Number(text.replace(/%$/, ''));
  const problem = `--auto-condense must be a percentage from 10 to 100 ("60%") or a number of tokens of 1000 or more ("120000", "120k"); got "${raw}"`;
  if (text === '' || text === '%' || !Number.isFinite(value)) throw new UsageError(problem);
  if (!tokens && (text.endsWith('%') || value <= 100)) {
    if (value < 10 || value > 100) throw new UsageError(problem);
    return { autoCondenseAt: value / 100 };
  }
  if (value < 1000 || !Number.isSafeInteger(Math.round(value))) throw new UsageError(problem);
  return { autoCondenseTokens: Math.round(value) };
}

/** A whole number, 0 or more. */
function wholeCount(raw: string, flag: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < 0) throw new UsageError(`${flag} must be a whole number (0 or more); got "${raw}"`);
  return value;
}

function positiveCost(raw: string | undefined): { maxCost?: number } {
  if (raw === undefined) return {};
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0) throw new UsageError(`--max-cost must be a positive number of US dollars; got "${raw}"`);
  return { maxCost: value };
}

function positiveNumber(raw: string | undefined, flag: string, key: keyof ModelInfoOverrides, whole: boolean): ModelInfoOverrides {
  if (raw === undefined) return {};
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (whole && (!Number.isInteger(value) || value === 0))) {
    throw new UsageError(`${flag} must be a ${whole ? 'positive whole' : 'non-negative'} number; got "${raw}"`);
  }
  return { [key]: value };
}

function repeatLimit(raw: string | undefined): { maxRepeatedCalls?: number } {
  if (raw === undefined) return {};
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < 0) throw new UsageError(`--max-repeats must be a whole number, 0 or more; got "${raw}"`);
  return { maxRepeatedCalls: value };
}
