// A real ACP client (the protocol library's own) driving `node dist/cli.js acp` over stdio, as an
// editor does: it records every session update and answers permission requests with the test's choice.
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  type ClientContext,
  type RequestPermissionOutcome,
  type RequestPermissionRequest,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { CLI_PATH } from './cli-runner.js';

/** A running `smith acp` and the client connected to it. */
export interface AcpAgentUnderTest {
  readonly agent: ClientContext;
  readonly child: ChildProcess;
  /** Every session/update received, in order. */
  readonly updates: SessionNotification[];
  /** Every permission request received, in order. */
  readonly permissions: RequestPermissionRequest[];
  /** How the next permission requests are answered (default: the first allow-once option). */
  decide: (request: RequestPermissionRequest) => RequestPermissionOutcome | Promise<RequestPermissionOutcome>;
  /** Everything the agent wrote to stdout, as received. */
  stdout(): string;
  stderr(): string;
  /** The updates of one kind, with their session. */
  updatesOf<K extends SessionUpdate['sessionUpdate']>(kind: K): Extract<SessionUpdate, { sessionUpdate: K }>[];
  /** Closes stdin and waits for the agent to exit; its exit code. */
  close(): Promise<number | null>;
}

/** Picks the option of that id from a permission request. */
export function choose(optionId: string): RequestPermissionOutcome {
  return { outcome: 'selected', optionId };
}

/** Starts `smith acp` with these arguments and connects a client to it. */
export function startAcpAgent(args: readonly string[], env: Record<string, string | undefined> = {}): AcpAgentUnderTest {
  const child = spawn(process.execPath, [CLI_PATH, 'acp', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const underTest: AcpAgentUnderTest = {
    agent: undefined as unknown as ClientContext,
    child,
    updates,
    permissions,
    decide: (request) => choose(request.options.find((o) => o.kind === 'allow_once')!.optionId),
    stdout: () => stdout,
    stderr: () => stderr,
    updatesOf: <K extends SessionUpdate['sessionUpdate']>(kind: K) =>
      updates.map((n) => n.update).filter((u): u is Extract<SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === kind),
    close: async () => {
      child.stdin!.end();
      // Wide: a busy machine is slow to stop the sessions' commands and MCP servers.
      const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
  const app = client({ name: 'smith-test-client' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest('session/request_permission', async ({ params }) => {
      permissions.push(params);
      return { outcome: await underTest.decide(params) };
    });
  const connection = app.connect(
    ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>),
  );
  (underTest as { agent: ClientContext }).agent = connection.agent;
  return underTest;
}

/** Every line the agent wrote to stdout is one JSON-RPC 2.0 message (nothing else reached stdout). */
export function protocolLinesOnly(stdout: string): boolean {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .every((line) => {
      try {
        return (JSON.parse(line) as { jsonrpc?: string }).jsonrpc === '2.0';
      } catch {
        return false;
      }
    });
}
