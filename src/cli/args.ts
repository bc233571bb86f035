import { splitWorktreeFlag } from './worktree-flag.js';
import type { ProviderId } from '../core/providers/types.js';
import type { ModelInfoOverrides } from '../core/providers/model-catalog.js';
import { isProviderId, PROVIDER_IDS } from '../shared/providers.js';
import { OPENAI_APIS, type OpenAiApi } from '../shared/provider-schemas.js';
import { WEB_FLAG_OPTIONS, webSettingsFromFlags } from './web-flags.js';
import { AUTO_APPROVE_FLAGS, type AutoApproveFlag, type CliOptions } from './cli-options.js';
import { parseFlags, taskIdArgument, UsageError } from './usage-error.js';
import { checkedHosts, checkedRule, condenseTrigger, positiveCost, positiveNumber, previewTimeout, repeatLimit, wholeCount } from './flag-checks.js';

/** Subcommands take their own flags (`smith mcp-serve --help` is not the main help); subcommands.ts runs them. */
export const SUBCOMMAND_NAMES = [
  'mcp-serve',
  'mcp',
  'acp',
  'checkpoints',
  'rewind',
  'replay',
  'import',
  'models',
  'worktree',
  'preview-command',
  'bisect',
  'commit-message',
] as const;
export type SubcommandName = (typeof SUBCOMMAND_NAMES)[number];
export const SUBCOMMANDS: readonly string[] = SUBCOMMAND_NAMES;

/** Reads the flags themselves; node's own message about a bad flag becomes a UsageError. */
function parseTaskFlags(argv: readonly string[]) {
  return parseFlags(
    argv,
    {
      cwd: { type: 'string' },
      'worktree-base': { type: 'string' },
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
      'openai-api': { type: 'string' },
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
      'preview-timeout': { type: 'string' },
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
    { positionals: true },
  );
}

/** Parses argv (without node and script); throws UsageError on a bad call. */
export function parseCliArgs(argv: readonly string[], currentDir: string): CliOptions {
  const split = splitWorktreeFlag(argv, (rest) => parseTaskFlags(rest).positionals.length);
  if (split.problem) throw new UsageError(split.problem);
  const { values, positionals } = parseTaskFlags(split.argv);
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
  const openAiApi = values['openai-api'];
  if (openAiApi !== undefined && !(OPENAI_APIS as readonly string[]).includes(openAiApi)) {
    throw new UsageError(`--openai-api must be ${OPENAI_APIS.join(' or ')}; got "${openAiApi}"`);
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
  const worktreeBase = values['worktree-base'];
  if (worktreeBase !== undefined && !split.worktree)
    throw new UsageError('--worktree-base goes with --worktree: it names the branch the new worktree starts from');
  if (worktreeBase !== undefined && worktreeBase.trim() === '') throw new UsageError('--worktree-base needs a local branch name');
  return {
    ...(task ? { task } : {}),
    ...(split.worktree ? { worktree: { ...split.worktree, ...(worktreeBase !== undefined ? { base: worktreeBase } : {}) } } : {}),
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
    ...(openAiApi ? { openAiApi: openAiApi as OpenAiApi } : {}),
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
    ...previewTimeout(values['preview-timeout']),
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
