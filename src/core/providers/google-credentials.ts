import type { ProviderErrorContext } from './provider-errors.js';
import { ProviderError } from './types.js';

/** Where Vertex AI's credentials come from, named when they are refused or missing. */
export const VERTEX_CREDENTIALS = "Google Cloud's credentials (GOOGLE_APPLICATION_CREDENTIALS, or `gcloud auth application-default login`)";

// What google-auth-library says when it finds no usable credentials: a missing or unreadable file,
// no default login, a refused token exchange.
const CREDENTIALS_FAILURE =
  /GOOGLE_APPLICATION_CREDENTIALS|Could not load the default credentials|credential file|invalid_grant|unauthorized_client|subject token/i;

/** The error, when it is google-auth-library finding no usable credentials: not retried, and no network problem. */
export function credentialsError(err: unknown, context: ProviderErrorContext): ProviderError | undefined {
  const message = deepestMessage(err);
  if (message === undefined || !CREDENTIALS_FAILURE.test(message)) return undefined;
  return new ProviderError(`No usable Google Cloud credentials for ${context.label}: ${message} Check ${context.keySource}.`, undefined, false);
}

function deepestMessage(err: unknown): string | undefined {
  let found: string | undefined;
  let current: unknown = err;
  for (let depth = 0; current instanceof Error && depth < 6; depth++) {
    if (CREDENTIALS_FAILURE.test(current.message)) found = current.message;
    current = current.cause;
  }
  return found;
}
