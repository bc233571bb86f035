import { PROVIDER_IDS } from '../shared/providers.js';
import { apiKeyEnvVar } from '../core/providers/create-provider.js';
import type { ProviderId } from '../core/providers/types.js';
import { SecretRedactor } from '../core/secrets/secret-redactor.js';

const PROVIDERS: readonly ProviderId[] = PROVIDER_IDS;

// Variables named like keys; a profile's `apiKeyEnv` must be named so, which keeps its key redacted too.
const KEY_LIKE_VARIABLE = /_(?:KEY|TOKEN)$/;

/** A redactor holding every API key the CLI could use: each provider's variable, and every …_KEY or …_TOKEN variable that is set. */
export function cliRedactor(env: NodeJS.ProcessEnv): SecretRedactor {
  const redactor = new SecretRedactor();
  const keyLike = Object.keys(env).filter((name) => KEY_LIKE_VARIABLE.test(name));
  redactor.set('provider', [...PROVIDERS.map((provider) => env[apiKeyEnvVar(provider)]), ...keyLike.map((name) => env[name])]);
  return redactor;
}
