import type { ProviderErrorContext } from './provider-errors.js';
import { ProviderError } from './types.js';

/** Where Bedrock's credentials come from, named when they are refused or missing. */
export const AWS_CREDENTIALS =
  "AWS's credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE and ~/.aws, `aws sso login`, an instance role), or AWS_BEARER_TOKEN_BEDROCK for a Bedrock API key";

// What the AWS SDK's credential chain says when no provider had credentials; a network failure of
// one of them (an instance metadata service that does not answer) reads otherwise and is retried.
const NO_CREDENTIALS = /Could not load credentials|Unable to find .*credentials|profile .* could not be found|does not exist|Token is expired|SSO session/i;

/** The error, when it is the AWS credential chain finding no usable credentials: not retried, and no network problem. */
export function awsCredentialsError(err: Error, context: ProviderErrorContext): ProviderError | undefined {
  for (let current: unknown = err, depth = 0; current instanceof Error && depth < 6; current = current.cause, depth++) {
    if (NO_CREDENTIALS.test(current.message)) {
      return new ProviderError(`No usable AWS credentials for ${context.label}: ${current.message} Check ${context.keySource}.`, undefined, false);
    }
  }
  return undefined;
}
