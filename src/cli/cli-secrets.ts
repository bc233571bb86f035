import { PROVIDER_IDS } from '../shared/providers.js';
import { apiKeyEnvVar } from '../core/providers/create-provider.js';
import type { ProviderId } from '../core/providers/types.js';
import { SecretRedactor } from '../core/secrets/secret-redactor.js';

const PROVIDERS: readonly ProviderId[] = PROVIDER_IDS;

/** A redactor holding every API key the CLI could use (each provider's variable that is set). */
export function cliRedactor(env: NodeJS.ProcessEnv): SecretRedactor {
  const redactor = new SecretRedactor();
  redactor.set('provider', PROVIDERS.map((provider) => env[apiKeyEnvVar(provider)]));
  return redactor;
}
