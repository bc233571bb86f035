import { parseHostMessage, type HostMessage } from '../../../src/shared/protocol.js';
import type { RequestClient } from '../../../src/shared/request-client.js';

/**
 * Takes one message posted to the page: a reply settles its request; any other valid host message
 * is returned for the reducer. Whatever else posts to the page never reaches the state, nor does a
 * host message of the wrong shape (it is reported through `report`, for the Developer Tools).
 */
export function receiveHostMessage(data: unknown, client: RequestClient, report: (problem: string) => void): HostMessage | undefined {
  const parsed = parseHostMessage(data);
  if (!parsed.ok) {
    if (looksLikeOurs(data)) report(`Smith ignored a host message: ${parsed.error}`);
    return undefined;
  }
  return client.handleMessage(parsed.message) ? undefined : parsed.message;
}

/** Has a string `type`, so a failed parse is worth reporting. */
function looksLikeOurs(data: unknown): boolean {
  return typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string';
}
