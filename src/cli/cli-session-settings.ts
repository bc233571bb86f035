// The session settings a run of `smith` takes from its flags and the files it loaded: one reading,
// shared by a task run from the terminal and the sessions of `smith acp`.
import type { SessionSettings } from '../core/session/open-session.js';
import type { PermissionRule } from '../core/permissions/permission-rules.js';
import type { HookSettings } from '../core/hooks/hooks.js';
import { DEFAULT_SUBAGENT_SETTINGS } from '../core/subagents/subagent-runner.js';
import { webSearchKeysFromEnv, withSearchKeys } from '../core/web-search/web-search-settings.js';
import type { CliOptions } from './cli-options.js';
import { policyFromFlags } from './cli-policy.js';

/** What was loaded from the settings files, agent, mode and skill folders for the run. */
export interface LoadedCliSettings {
  readonly rules: readonly PermissionRule[];
  readonly hooks: HookSettings;
  readonly agents: NonNullable<SessionSettings['agents']>;
  readonly modes: NonNullable<SessionSettings['modes']>;
  readonly agentSkills: NonNullable<SessionSettings['agentSkills']>;
}

/** The rules given with --allow, --ask and --deny, each naming its flag as its source. */
export function flagRules(options: CliOptions): PermissionRule[] {
  return options.permissions.map((p) => ({ ...p, source: `--${p.effect}` }));
}

/**
 * The settings of a session from the flags and what was loaded. `dryRun`: no checkpoints and no
 * sandbox (a dry run runs no command and writes nothing).
 */
export function cliSessionSettings(options: CliOptions, loaded: LoadedCliSettings, env: NodeJS.ProcessEnv, dryRun = false): SessionSettings {
  return {
    policy: policyFromFlags(options),
    maxIterations: options.maxIterations,
    ...(options.maxRepeatedCalls !== undefined ? { maxRepeatedCalls: options.maxRepeatedCalls } : {}),
    ...(options.commandPreviewTimeoutSeconds !== undefined ? { commandPreviewTimeoutSeconds: options.commandPreviewTimeoutSeconds } : {}),
    ...(options.maxCost !== undefined ? { maxCost: options.maxCost } : {}),
    ...(options.autoCondenseAt !== undefined ? { autoCondenseAt: options.autoCondenseAt } : {}),
    ...(options.autoCondenseTokens !== undefined ? { autoCondenseTokens: options.autoCondenseTokens } : {}),
    modelOverrides: options.modelOverrides,
    checkpoints: { enabled: options.checkpoints && !dryRun },
    permissions: [...flagRules(options), ...loaded.rules],
    hooks: loaded.hooks,
    ...(options.sandbox && !dryRun ? { sandbox: { network: options.sandboxNetwork, allowedHosts: options.sandboxAllowedHosts } } : {}),
    subagents: { ...DEFAULT_SUBAGENT_SETTINGS, maxParallel: options.maxSubagents },
    agents: loaded.agents,
    modes: loaded.modes,
    // The search services' keys come from the environment, as the providers' do (cliRedactor keeps every …_KEY out of the output).
    web: { ...options.web, search: withSearchKeys(options.web.search ?? { backend: 'auto' }, webSearchKeysFromEnv(env)) },
    agentSkills: loaded.agentSkills,
  };
}
