// Opens the task environment of one ACP session, as `smith` opens a run's: the flags of `smith acp`,
// the settings files, modes, agents and skills of the session's folder, and the MCP servers of the
// configuration plus those the client gave. Nobody can answer a trust question on stdio: what waits
// for the workspace's trust stays off unless `smith acp --trust-workspace`.
import type { McpServer } from '@agentclientprotocol/sdk';
import type { ApprovalPort, QuestionPort } from '../../core/ports.js';
import { mcpRootsOf } from '../../core/mcp/mcp-roots.js';
import { openSession, type SessionProviders } from '../../core/session/open-session.js';
import type { TaskEnvironment } from '../../core/session/task-environment.js';
import type { SecretRedactor } from '../../core/secrets/secret-redactor.js';
import { cliAgentSettings, reportAgents } from '../cli-agents.js';
import { createCliHost } from '../cli-host.js';
import { cliModeSettings, reportModes } from '../cli-modes.js';
import type { CliOptions } from '../cli-options.js';
import { cliSessionSettings, flagRules } from '../cli-session-settings.js';
import { startCliMcp, type CliMcp } from '../mcp-setup.js';
import { permissionSettings } from '../run-options.js';
import { cliSkillSettings } from '../skill-setup.js';
import type { Style } from '../style.js';
import { decliningElicitor } from '../terminal-elicitation.js';
import { acpMcpServers } from './acp-mcp-servers.js';

/** What every session of one `smith acp` process shares: its flags, storage, streams and providers. */
export interface AcpRun {
  readonly options: CliOptions;
  readonly storageDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly version: string;
  readonly redactor: SecretRedactor;
  /** Where notices go: stderr (stdout carries the protocol only). */
  readonly err: NodeJS.WritableStream;
  readonly style: Style;
  /** The providers, resolved as `smith` resolves them; throws saying what to configure. */
  providers(): SessionProviders;
}

/** A session's environment, its MCP servers, and a way to read the permission rules again. */
export interface AcpEnvironment {
  readonly cwd: string;
  readonly environment: TaskEnvironment;
  readonly mcp: CliMcp;
  /** Reads the settings files' rules again (after "always allow" wrote one); the next call is judged by them. */
  reloadRules(): Promise<void>;
  dispose(): Promise<void>;
}

/** Opens the environment of a session in `cwd`; its approvals and questions go to the client. */
export async function openAcpEnvironment(
  run: AcpRun,
  cwd: string,
  servers: readonly McpServer[],
  ports: { readonly approvals: ApprovalPort; readonly questions: QuestionPort },
): Promise<AcpEnvironment> {
  const { options, storageDir, err, style } = run;
  const providers = run.providers();
  const extraServers = acpMcpServers(servers);
  const readSettings = () => permissionSettings(storageDir, cwd, options.trustWorkspace, style);
  const permission = await readSettings();
  let rules = permission.rules;
  const agentSkills = await cliSkillSettings({ cwd, roots: [cwd], storageDir, skillDirs: options.skillDirs, trustWorkspace: options.trustWorkspace, style });
  const warn = (message: string) => err.write(`${style.yellow(style.text(message))}\n`);
  const mcp = await startCliMcp({
    cwd,
    storageDir,
    ...(options.mcpConfig ? { configFile: options.mcpConfig } : {}),
    version: run.version,
    trustWorkspace: options.trustWorkspace,
    signInOnItsOwn: false,
    elicitor: decliningElicitor(warn, 'smith acp has no way to show a form'),
    roots: mcpRootsOf([{ path: cwd }]),
    redactor: run.redactor,
    extraServers,
    warn,
  });
  try {
    const agents = await cliAgentSettings(storageDir, cwd, options.trustWorkspace);
    const modes = await cliModeSettings({ storageDir, cwd, otherRoots: [] }, options.trustWorkspace);
    const settings = cliSessionSettings(options, { rules, hooks: permission.hooks, agents, modes, agentSkills }, run.env);
    const environment = await openSession({
      place: { cwd, storageDir },
      providers,
      // Read before each call, so a rule "always allow" wrote applies to the next one.
      settings: { ...settings, permissions: () => [...flagRules(options), ...rules] },
      ports: {
        host: { ...createCliHost(undefined, err, style), approvals: ports.approvals, questions: ports.questions },
        redactor: run.redactor,
        mcp: mcp.wiring,
      },
    });
    reportModes(environment.modes, err, style);
    reportAgents(environment.agents, err, style);
    return {
      cwd,
      environment,
      mcp,
      reloadRules: async () => {
        rules = (await readSettings()).rules;
      },
      dispose: async () => {
        await environment.dispose();
        await mcp.dispose();
      },
    };
  } catch (error) {
    await mcp.dispose();
    throw error;
  }
}
