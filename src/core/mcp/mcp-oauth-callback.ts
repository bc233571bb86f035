import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The path the browser returns to after sign-in. */
const CALLBACK_PATH = '/callback';

/** The authorization code the browser brought back, and how to answer the browser once it has been exchanged. */
interface CallbackAnswer {
  readonly code: string;
  /** Shows the outcome in the browser tab: signed in, or why not. */
  finish(outcome: { ok: true } | { ok: false; message: string }): void;
}

/** A loopback HTTP server on 127.0.0.1 waiting for the browser's redirect with the authorization code. */
export interface LoopbackCallback {
  readonly redirectUrl: string;
  /**
   * Resolves with the code of the first redirect whose `state` is the expected one; rejects when the
   * authorization server answered with an error, when `timeoutMs` passes, or when `signal` aborts.
   * A redirect with another state (an older tab, a forged link) gets an error page and is ignored.
   */
  waitForCode(expectedState: () => string | undefined, timeoutMs: number, signal?: AbortSignal): Promise<CallbackAnswer>;
  close(): Promise<void>;
}

/** A sign-in that ended without a code: timed out, refused in the browser, or given up. */
export class McpSignInError extends Error {}

/**
 * Listens on 127.0.0.1 (never on other interfaces): on `port` when given (the port registered for a
 * configured client id; a clear error when another program holds it), else on a free port.
 */
export async function startLoopbackCallback(serverName: string, port?: number): Promise<LoopbackCallback> {
  let onRequest: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void page(res, 404, 'No sign-in is waiting here.');
  const server = createServer((req, res) => onRequest(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE' && port !== undefined
          ? new McpSignInError(
              `the sign-in callback port ${port} ("oauth.callbackPort" of this server) is in use by another program; close that program, or change the port here and where the client id is registered.`,
            )
          : error,
      );
    });
    server.listen(port ?? 0, '127.0.0.1', () => resolve());
  });
  const redirectUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${CALLBACK_PATH}`;
  return {
    redirectUrl,
    waitForCode: (expectedState, timeoutMs, signal) =>
      new Promise<CallbackAnswer>((resolve, reject) => {
        const timer = setTimeout(() => fail(new McpSignInError(`sign-in was not finished within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
        const aborted = () => fail(new McpSignInError('sign-in was cancelled'));
        signal?.addEventListener('abort', aborted, { once: true });
        const settle = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', aborted);
          onRequest = (_req, res) => void page(res, 410, 'This sign-in is over; start it again from Smith.');
        };
        function fail(error: Error): void {
          settle();
          reject(error);
        }
        if (signal?.aborted) return aborted();
        onRequest = (req, res) => {
          const url = new URL(req.url ?? '/', redirectUrl);
          if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) return void page(res, 404, 'Not found.');
          const state = url.searchParams.get('state');
          const expected = expectedState();
          if (!expected || state !== expected) {
            return void page(
              res,
              400,
              `This sign-in answer does not belong to the sign-in Smith is waiting for${serverName ? ` (MCP server "${serverName}")` : ''}: its state does not match. If you opened several sign-in pages, use the newest one.`,
            );
          }
          const error = url.searchParams.get('error');
          if (error) {
            const description = url.searchParams.get('error_description');
            page(res, 400, `Sign-in was not completed: ${error}${description ? ` (${description})` : ''}. You can close this tab.`);
            return fail(new McpSignInError(`the authorization server refused the sign-in: ${error}${description ? ` (${description})` : ''}`));
          }
          const code = url.searchParams.get('code');
          if (!code) return void page(res, 400, 'The answer carries no authorization code.');
          settle();
          resolve({
            code,
            finish: (outcome) =>
              outcome.ok
                ? page(res, 200, `Signed in to MCP server "${serverName}". You can close this tab and go back to Smith.`)
                : page(res, 502, `Sign-in to MCP server "${serverName}" failed: ${outcome.message}`),
          });
        };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function page(res: ServerResponse, status: number, message: string): void {
  const html = `<!doctype html><meta charset="utf-8"><title>Smith sign-in</title><p>${message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
}
