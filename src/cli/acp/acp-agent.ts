// Smith as an Agent Client Protocol agent: the protocol's requests answered by ACP sessions, each a
// Smith task. Every bad request gets a JSON-RPC error that says what is wrong; stdout carries the
// protocol's messages only (notices go to stderr).
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { AgentContext, InitializeResponse } from '@agentclientprotocol/sdk';
import { readTaskEvents, taskEventsFile } from '../../core/log/task-log.js';
import type { TaskEvent } from '../../core/log/events.js';
import { taskIdProblem } from '../../shared/task-id.js';
import { acpSdk } from './acp-sdk-loader.js';
import { AcpPromptError, AcpSession, type AcpClientPort } from './acp-session.js';
import type { AcpRun } from './acp-session-setup.js';

/** The one way to authenticate: the provider settings `smith` itself reads. */
export const SMITH_AUTH_METHOD = 'smith-settings';

/** What the client is told about the provider in use, or what to configure when there is none. */
export function providerDescription(run: AcpRun): { readonly ok: boolean; readonly text: string } {
  try {
    const { main } = run.providers();
    return {
      ok: true,
      text: `Uses ${main.id} with model ${main.modelId}, chosen as smith chooses it: its flags, then the API profile (--profile, SMITH_PROFILE), then the first provider whose key is set in the environment.`,
    };
  } catch (error) {
    return {
      ok: false,
      text: `No usable provider: ${(error as Error).message}. Configure one as for smith (flags in the agent's command, a profile in the settings, or a key in its environment), then authenticate again.`,
    };
  }
}

/** Serves ACP on the streams until the client closes them. */
export async function runAcpAgent(run: AcpRun, streams: { readonly input: NodeJS.ReadableStream; readonly output: NodeJS.WritableStream }): Promise<void> {
  const { agent, ndJsonStream, PROTOCOL_VERSION, RequestError } = acpSdk();
  const sessions = new Map<string, AcpSession>();
  const clientPort = (client: AgentContext): AcpClientPort => ({
    update: (sessionId, update) => client.notify('session/update', { sessionId, update }),
    requestPermission: (request, signal) => client.request('session/request_permission', request, { cancellationSignal: signal, stopWaitingOnCancel: true }),
  });
  const sessionOf = (id: string): AcpSession => {
    const session = sessions.get(id);
    if (!session) throw RequestError.sessionNotFound(id);
    return session;
  };
  /** An error while a session opens: no provider is an authentication matter, anything else a bad request. */
  const openingError = (error: unknown) => {
    if (error instanceof RequestError) return error;
    const provider = providerDescription(run);
    return provider.ok ? RequestError.invalidParams(undefined, (error as Error).message) : RequestError.authRequired(undefined, provider.text);
  };
  const checkedCwd = (cwd: string): string => {
    if (!isAbsolute(cwd)) throw RequestError.invalidParams(undefined, `cwd must be an absolute path; got "${cwd}"`);
    try {
      const real = realpathSync(cwd);
      if (statSync(real).isDirectory()) return real;
    } catch {
      // Reported below with the path as given.
    }
    throw RequestError.invalidParams(undefined, `cwd is not a folder: ${cwd}`);
  };
  const guarded = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      throw error instanceof AcpPromptError ? RequestError.invalidParams(undefined, error.message) : error;
    }
  };

  const app = agent({ name: 'smith' })
    .onRequest(
      'initialize',
      (): InitializeResponse => ({
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
        },
        authMethods: [{ id: SMITH_AUTH_METHOD, name: "Smith's provider settings", description: providerDescription(run).text }],
        agentInfo: { name: 'smith', title: 'Smith', version: run.version },
      }),
    )
    .onRequest('authenticate', ({ params }) => {
      if (params.methodId !== SMITH_AUTH_METHOD)
        throw RequestError.invalidParams(undefined, `unknown method "${params.methodId}"; Smith offers ${SMITH_AUTH_METHOD}`);
      const provider = providerDescription(run);
      if (!provider.ok) throw RequestError.authRequired(undefined, provider.text);
      return {};
    })
    .onRequest('session/new', async ({ params, client }) => {
      const cwd = checkedCwd(params.cwd);
      const session = await AcpSession.open(run, clientPort(client), cwd, params.mcpServers).catch((error: unknown) => {
        throw openingError(error);
      });
      sessions.set(session.id, session);
      return { sessionId: session.id, modes: session.modes };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const problem = taskIdProblem(params.sessionId);
      if (problem !== undefined) throw RequestError.invalidParams(undefined, `sessionId: ${problem}`);
      if (sessions.has(params.sessionId)) throw RequestError.invalidRequest(undefined, `session ${params.sessionId} is already open`);
      const cwd = checkedCwd(params.cwd);
      let events: TaskEvent[];
      try {
        events = readTaskEvents(run.storageDir, params.sessionId);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw RequestError.sessionNotFound(params.sessionId);
        throw RequestError.internalError(
          undefined,
          `the log ${taskEventsFile(run.storageDir, params.sessionId)} could not be read: ${(error as Error).message}`,
        );
      }
      const session = await AcpSession.load(run, clientPort(client), params.sessionId, events, cwd, params.mcpServers).catch((error: unknown) => {
        throw openingError(error);
      });
      sessions.set(session.id, session);
      return { modes: session.modes };
    })
    .onRequest('session/prompt', async ({ params }) => {
      const session = sessionOf(params.sessionId);
      try {
        return { stopReason: await session.prompt(params.prompt) };
      } catch (error) {
        throw error instanceof AcpPromptError ? RequestError.invalidParams(undefined, error.message) : error;
      }
    })
    .onRequest('session/set_mode', ({ params }) => {
      guarded(() => sessionOf(params.sessionId).setMode(params.modeId));
      return {};
    })
    .onRequest('session/close', async ({ params }) => {
      const session = sessionOf(params.sessionId);
      sessions.delete(params.sessionId);
      // Its turn is cancelled, its commands and MCP servers stopped; the task stays in the storage for session/load.
      await session.dispose();
      return {};
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  const input = Readable.toWeb(streams.input as Readable) as ReadableStream<Uint8Array>;
  const output = Writable.toWeb(streams.output as Writable) as WritableStream<Uint8Array>;
  const connection = app.connect(ndJsonStream(output, input));
  await connection.closed;
  for (const session of sessions.values()) await session.dispose().catch((error: unknown) => run.err.write(`smith acp: ${(error as Error).message}\n`));
}
