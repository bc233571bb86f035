import { apiProfileSchema, profileNameSchema, type ApiProfile, type ProviderSettingsView } from './protocol.js';
import { DEFAULT_MODELS } from './providers.js';

/** The profiles that could be read, by name, and what was wrong with the others. */
export interface ParsedProfiles {
  readonly profiles: Readonly<Record<string, ApiProfile>>;
  readonly problems: readonly string[];
}

/**
 * Reads `{"NAME": {"provider": …, "model": …}, …}` (the `profiles` of a settings file). A profile
 * that is not valid is left out and named in `problems`, so one typo does not lose the others.
 */
export function parseProfiles(value: unknown, source: string): ParsedProfiles {
  if (value === undefined || value === null) return { profiles: {}, problems: [] };
  if (typeof value !== 'object' || Array.isArray(value)) return { profiles: {}, problems: [`${source}: "profiles" must be an object of named profiles`] };
  const profiles: Record<string, ApiProfile> = {};
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(value)) {
    const validName = profileNameSchema.safeParse(name);
    const parsed = apiProfileSchema.safeParse(raw);
    if (!validName.success) problems.push(`${source}: profile name "${name}" ${validName.error.issues[0]?.message ?? 'is not valid'}`);
    else if (!parsed.success)
      problems.push(`${source}: profile "${name}": ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'profile'} ${issue.message}`).join('; ')}`);
    else profiles[name] = parsed.data;
  }
  return { profiles, problems };
}

/** The provider settings a profile stands for, as the Settings form holds them (fields left out: the provider's defaults). */
export function profileChoice(
  profile: ApiProfile,
): Pick<ProviderSettingsView, 'provider' | 'model' | 'baseUrl' | 'toolProtocol' | 'planModel' | 'actModel' | 'reasoningEffort'> {
  return {
    provider: profile.provider,
    model: profile.model ?? DEFAULT_MODELS[profile.provider],
    baseUrl: profile.baseUrl ?? '',
    toolProtocol: profile.toolProtocol ?? 'xml',
    planModel: profile.planModel ?? '',
    actModel: profile.actModel ?? '',
    reasoningEffort: profile.reasoningEffort ?? 'off',
  };
}

/** The profile the settings are now, if one matches them field for field. */
export function matchingProfile(
  profiles: Readonly<Record<string, ApiProfile>>,
  settings: Pick<ProviderSettingsView, 'provider' | 'model' | 'baseUrl' | 'toolProtocol' | 'planModel' | 'actModel' | 'reasoningEffort'>,
): string | undefined {
  const current = {
    provider: settings.provider,
    model: settings.model,
    baseUrl: settings.baseUrl,
    toolProtocol: settings.toolProtocol,
    planModel: settings.planModel ?? '',
    actModel: settings.actModel ?? '',
    reasoningEffort: settings.reasoningEffort ?? 'off',
  };
  return Object.keys(profiles).find((name) => {
    const choice = profileChoice(profiles[name]!);
    return (Object.keys(current) as (keyof typeof current)[]).every((key) => choice[key] === current[key]);
  });
}

/** A profile holding these settings, leaving out what is the provider's default anyway. */
export function profileOf(choice: {
  provider: ApiProfile['provider'];
  model: string;
  baseUrl: string;
  toolProtocol?: ApiProfile['toolProtocol'];
  planModel?: string;
  actModel?: string;
  reasoningEffort?: ApiProfile['reasoningEffort'];
}): ApiProfile {
  return {
    provider: choice.provider,
    ...(choice.model.trim() && choice.model.trim() !== DEFAULT_MODELS[choice.provider] ? { model: choice.model.trim() } : {}),
    ...(choice.baseUrl.trim() ? { baseUrl: choice.baseUrl.trim() } : {}),
    ...(choice.toolProtocol && choice.toolProtocol !== 'xml' ? { toolProtocol: choice.toolProtocol } : {}),
    ...(choice.planModel?.trim() ? { planModel: choice.planModel.trim() } : {}),
    ...(choice.actModel?.trim() ? { actModel: choice.actModel.trim() } : {}),
    ...(choice.reasoningEffort && choice.reasoningEffort !== 'off' ? { reasoningEffort: choice.reasoningEffort } : {}),
  };
}
