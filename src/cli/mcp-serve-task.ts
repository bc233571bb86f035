import { KEYED_PROVIDERS } from './provider-settings.js';
import type { ProviderConfig } from '../core/providers/types.js';
import { openSession, sessionProviders, type SessionProviders } from '../core/session/open-session.js';
import { APPROVE_ALL_POLICY } from '../core/log/approval-policy.js';
import { Task } from '../core/task/task.js';
import { cliRedactor } from './cli-secrets.js';
import { createMcpServeHost } from './mcp-serve-host.js';
import { runTaskChain } from '../core/task/task-chain.js';
import { toolSubject } from '../shared/tool-subject.js';

/** What run_task needs. */
interface McpTaskRequest {
  readonly cwd: string;
  readonly storageDir: string;
  readonly providerConfig?: ProviderConfig;
  readonly task: string;
  readonly maxIterations: number;
  readonly signal: AbortSignal;
  /** Each tool the task uses, as one line (sent as MCP progress when the client asked for it). */
  onStep(text: string): void;
}

/** run_task's answer, as MCP tool result text. */
interface McpTaskAnswer {
  readonly text: string;
  readonly isError: boolean;
}

/**
 * Runs a whole Smith task like `smith --yes` would: everything inside the workspace is approved
 * (the MCP client approved the run_task call itself), anything outside it is refused.
 */
export async function runTaskForMcp(request: McpTaskRequest): Promise<McpTaskAnswer> {
  if (!request.providerConfig) {
    return {
      isError: true,
      text: `run_task needs a model provider: start smith mcp-serve with --provider/--model/--base-url, or set one of ${KEYED_PROVIDERS.map((p) => p.keyEnvVar).join(', ')} in its environment.`,
    };
  }
  let providers: SessionProviders;
  try {
    providers = sessionProviders({ main: request.providerConfig });
  } catch (error) {
    return { isError: true, text: (error as Error).message };
  }
  const environment = await openSession({
    place: { cwd: request.cwd, storageDir: request.storageDir },
    providers,
    settings: { policy: { ...APPROVE_ALL_POLICY, outsideWorkspace: false }, maxIterations: request.maxIterations },
    // The answer goes to another program and the log stays on disk: neither holds the keys.
    ports: { host: createMcpServeHost(), redactor: cliRedactor(process.env) },
  });
  const first = Task.create(environment.options, request.task);
  let current = first;
  const follow = (task: Task) => {
    current = task;
    task.onUpdate((update) => {
      if (update.type === 'event' && update.event.type === 'tool_requested') {
        const target = toolSubject(update.event.tool, update.event.params)?.text ?? '';
        request.onStep(`${update.event.tool}${target ? ` ${target}` : ''}`);
      }
    });
  };
  follow(first);
  const onAbort = () => current.abort();
  request.signal.addEventListener('abort', onAbort);
  try {
    const { task, outcome } = await runTaskChain(first, environment.options, follow);
    switch (outcome.status) {
      case 'completed':
        return { isError: false, text: `${outcome.result}${outcome.command ? `\n\nSuggested command: ${outcome.command}` : ''}\n\n(Smith task ${task.id})` };
      case 'failed':
        return { isError: true, text: `The Smith task failed: ${outcome.error}\n\n(Smith task ${task.id})` };
      case 'aborted':
        return { isError: true, text: `The Smith task was cancelled. (Smith task ${task.id})` };
      case 'new_task':
        return { isError: true, text: `The Smith task handed over to a new task that was not run:\n${outcome.context}` };
    }
  } finally {
    request.signal.removeEventListener('abort', onAbort);
    await environment.dispose();
  }
}
