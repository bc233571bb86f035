import type { McpHub } from '../core/mcp/mcp-hub.js';
import type { McpServerSnapshot } from '../core/mcp/mcp-server-snapshot.js';
import type { Style } from './style.js';
import { commandHelp } from './command-help.js';

/** Help for the /mcp REPL command: its line of the built-in commands and the subcommands. */
const MCP_REPL_HELP = commandHelp('mcp');

/** Runs `/mcp [subcommand] [name]` and returns the text to print (what servers sent passes through style.text()). */
export async function runMcpReplCommand(args: readonly string[], hub: McpHub, style: Style): Promise<string> {
  const [sub, name] = args;
  if (!sub) return listServers(hub, style);
  if (!['tools', 'log', 'restart', 'disable', 'enable', 'login', 'logout'].includes(sub)) return `Unknown /mcp subcommand "${sub}".\n${MCP_REPL_HELP}`;
  if (!name) return `Usage: /mcp ${sub} NAME`;
  const server = hub.server(name);
  if (!server)
    return `No MCP server named "${name}". Servers: ${
      hub
        .servers()
        .map((s) => s.name)
        .join(', ') || '(none configured)'
    }`;
  try {
    switch (sub) {
      case 'tools':
        return server.tools.length === 0
          ? `${name}: no tools (${server.status})`
          : server.tools.map((t) => `${style.bold(style.text(t.name))}  ${style.dim(style.text(t.description.split('\n')[0] ?? ''))}`).join('\n');
      case 'log':
        return style.text(hub.serverLog(name).join('\n')) || `${name}: no output yet`;
      case 'restart':
        await hub.restart(name);
        break;
      case 'login':
        // The address to open goes to stderr as sign-in starts (see startCliMcp); this waits for the browser.
        await hub.signIn(name);
        break;
      case 'logout': {
        const { message } = await hub.signOut(name);
        const after = hub.server(name)!;
        // A server that needs sign-in shows the message as its status line's reason; say it here otherwise.
        const note = after.status === 'needs-auth' ? '' : `\n    ${style.dim(message)}`;
        return `${style.bold(style.text(name))}  signed out${note}\n${describeServer(after, style)}`;
      }
      default:
        await hub.setDisabled(name, sub === 'disable');
    }
  } catch (error) {
    return style.red(style.text((error as Error).message));
  }
  return describeServer(hub.server(name)!, style);
}

function listServers(hub: McpHub, style: Style): string {
  const servers = hub.servers();
  const lines =
    servers.length === 0
      ? ['No MCP servers configured (add them to .smith/mcp.json or the global mcp_settings.json).']
      : servers.map((s) => describeServer(s, style));
  for (const problem of hub.configProblems()) if (!problem.server) lines.push(style.yellow(style.text(`${problem.file}: ${problem.message}`)));
  return lines.join('\n');
}

function describeServer(server: McpServerSnapshot, style: Style): string {
  const paint = server.status === 'connected' ? style.green : server.status === 'error' ? style.red : server.status === 'disabled' ? style.dim : style.yellow;
  const status = server.reconnect
    ? `reconnecting ${server.reconnect.attempt}/${server.reconnect.maxAttempts}`
    : server.status === 'needs-auth'
      ? `needs sign-in (/mcp login ${server.name})`
      : server.auth?.state === 'signing-in'
        ? 'signing in'
        : server.status;
  const details = [
    server.transport ?? server.config?.transport.type,
    server.status === 'connected' ? `${server.tools.length} tools, ${server.resources.length + server.resourceTemplates.length} resources` : undefined,
    server.config && server.config.autoApprove.length > 0 ? `auto-approve: ${server.config.autoApprove.join(', ')}` : undefined,
    server.auth?.state === 'signed-in' ? 'signed in (OAuth)' : undefined,
  ].filter(Boolean);
  const error = server.error && server.status !== 'connected' ? `\n    ${style.dim(style.text(server.error).split('\n').join('\n    '))}` : '';
  return `${style.bold(style.text(server.name))}  ${paint(status)}  ${style.dim(details.join(' · '))}${error}`;
}
