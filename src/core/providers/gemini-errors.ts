import { geminiSdk } from './provider-sdks.js';
import { extractServerMessage, httpStatusError, otherError, truncatedStreamError } from './provider-errors.js';
import type { ProviderErrorContext } from './provider-errors.js';
import { credentialsError } from './google-credentials.js';
import { ProviderAbortedError, ProviderError } from './types.js';

const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';

/**
 * Turns anything @google/genai threw into a ProviderError worded for the user. The SDK has a
 * single ApiError whose message is the JSON error body, so the body is parsed back out of it.
 */
export function toGeminiProviderError(err: unknown, context: ProviderErrorContext, signal: AbortSignal | undefined, midStream: boolean): ProviderError {
  if (err instanceof ProviderError) return err;
  // Checked first: an abort surfaces as an AbortError or as whatever the body reader was doing.
  if (signal?.aborted) return new ProviderAbortedError();
  if (err instanceof geminiSdk().ApiError) {
    const body = parseEmbeddedJson(err.message);
    const serverMessage = extractServerMessage(body) ?? err.message;
    return httpStatusError(err.status, serverMessage, context, {
      body,
      retryAfterMs: retryDelayMs(body),
      keyRejected: isApiKeyInvalid(body, serverMessage),
    });
  }
  // The SDK's SSE reader says this when the body ends in the middle of an event.
  if (err instanceof Error && err.message.includes('Incomplete JSON segment')) return truncatedStreamError(context);
  // Vertex AI: google-auth-library found no usable credentials. Retrying cannot help.
  return credentialsError(err, context) ?? otherError(err, context, midStream);
}

// Errors before the stream carry the body as the whole message; errors inside it are prefixed
// ("got status: UNAVAILABLE. {...}").
function parseEmbeddedJson(message: string): unknown {
  const start = message.indexOf('{');
  if (start < 0) return undefined;
  try {
    return JSON.parse(message.slice(start));
  } catch {
    return undefined;
  }
}

/** Google tells a rate-limited client when to come back in a RetryInfo detail ("retryDelay": "37s"), not in a header. */
function retryDelayMs(body: unknown): number | undefined {
  for (const detail of errorDetails(body)) {
    if (detail['@type'] !== RETRY_INFO_TYPE || typeof detail.retryDelay !== 'string') continue;
    const seconds = Number.parseFloat(detail.retryDelay);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  }
  return undefined;
}

// Gemini answers a bad key with 400 INVALID_ARGUMENT, reason API_KEY_INVALID, not with 401.
function isApiKeyInvalid(body: unknown, serverMessage: string): boolean {
  if (errorDetails(body).some((detail) => detail.reason === 'API_KEY_INVALID')) return true;
  return /API key not valid/i.test(serverMessage);
}

function errorDetails(body: unknown): Array<Record<string, unknown>> {
  const details = (body as { error?: { details?: unknown } } | undefined)?.error?.details;
  return Array.isArray(details) ? details.filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null) : [];
}
