// Synthetic but realistic MCP servers for the prompt-size benchmark: tool names, descriptions and
// JSON schemas shaped like those of popular servers (GitHub, Postgres, Slack, Jira, a browser).
import type { McpToolInfo } from '../src/core/mcp/mcp-connection.js';
import type { McpServerSnapshot } from '../src/core/mcp/mcp-server-snapshot.js';

type Schema = Record<string, unknown>;

const str = (description: string): Schema => ({ type: 'string', description });
const int = (description: string, extra: Schema = {}): Schema => ({ type: 'integer', description, ...extra });

interface ServerTemplate {
  readonly name: string;
  readonly about: string;
  /** Properties every tool of the server takes (e.g. owner and repo). */
  readonly common: Record<string, Schema>;
  readonly nouns: ReadonlyArray<{ readonly noun: string; readonly fields: Record<string, Schema> }>;
}

const SERVERS: readonly ServerTemplate[] = [
  {
    name: 'github',
    about: 'GitHub repositories, issues and pull requests',
    common: { owner: str('Repository owner (user or organisation)'), repo: str('Repository name') },
    nouns: [
      {
        noun: 'issue',
        fields: {
          issue_number: int('The issue number'),
          title: str('Issue title'),
          body: str('Issue body in Markdown'),
          labels: { type: 'array', items: { type: 'string' }, description: 'Labels to apply' },
        },
      },
      {
        noun: 'pull_request',
        fields: {
          pull_number: int('The pull request number'),
          head: str('Branch with the changes'),
          base: str('Branch to merge into'),
          draft: { type: 'boolean', description: 'Open as a draft' },
        },
      },
      { noun: 'branch', fields: { branch: str('Branch name'), from_branch: str('Branch to start from (default: the repository default branch)') } },
      { noun: 'file', fields: { path: str('Path of the file in the repository'), ref: str('Branch, tag or commit SHA'), content: str('New file content') } },
      {
        noun: 'release',
        fields: { tag_name: str('Tag of the release'), name: str('Release title'), prerelease: { type: 'boolean', description: 'Mark as a pre-release' } },
      },
    ],
  },
  {
    name: 'postgres',
    about: 'Read-only SQL access to the analytics database',
    common: { database: str('Database name (default: analytics)') },
    nouns: [
      { noun: 'table', fields: { schema: str('Schema name'), table: str('Table name') } },
      { noun: 'query', fields: { sql: str('A single read-only SQL statement'), limit: int('Most rows to return', { minimum: 1, maximum: 10000 }) } },
      { noun: 'index', fields: { table: str('Table name'), columns: { type: 'array', items: { type: 'string' }, description: 'Indexed columns' } } },
      { noun: 'view', fields: { schema: str('Schema name'), view: str('View name') } },
      { noun: 'role', fields: { role: str('Role name') } },
    ],
  },
  {
    name: 'slack',
    about: 'Messages and channels of the team workspace',
    common: { workspace: str('Workspace id (default: the configured one)') },
    nouns: [
      {
        noun: 'message',
        fields: { channel_id: str('Channel id, e.g. C024BE91L'), text: str('Message text (mrkdwn)'), thread_ts: str('Reply in this thread') },
      },
      {
        noun: 'channel',
        fields: { channel_id: str('Channel id'), name: str('Channel name without #'), is_private: { type: 'boolean', description: 'Private channel' } },
      },
      { noun: 'reaction', fields: { channel_id: str('Channel id'), timestamp: str('Message timestamp'), reaction: str('Emoji name without colons') } },
      { noun: 'user', fields: { user_id: str('User id'), email: str('Email address') } },
      { noun: 'file', fields: { channel_id: str('Channel id'), filename: str('File name'), content: str('File content') } },
    ],
  },
  {
    name: 'jira',
    about: 'Issues, sprints and boards in Jira Cloud',
    common: { project_key: str('Project key, e.g. SHOP') },
    nouns: [
      {
        noun: 'issue',
        fields: {
          issue_key: str('Issue key, e.g. SHOP-123'),
          summary: str('One-line summary'),
          description: str('Description (Atlassian wiki markup)'),
          priority: { type: 'string', enum: ['Highest', 'High', 'Medium', 'Low', 'Lowest'] },
        },
      },
      { noun: 'sprint', fields: { board_id: int('Board id'), sprint_id: int('Sprint id'), goal: str('Sprint goal') } },
      { noun: 'comment', fields: { issue_key: str('Issue key'), body: str('Comment text') } },
      { noun: 'worklog', fields: { issue_key: str('Issue key'), time_spent: str('Time spent, e.g. "2h 30m"'), started: str('ISO 8601 start time') } },
      { noun: 'transition', fields: { issue_key: str('Issue key'), transition_id: str('Transition id from the workflow') } },
    ],
  },
  {
    name: 'browser',
    about: 'A headless browser for testing the web app',
    common: { tab_id: str('Browser tab id (default: the active tab)') },
    nouns: [
      { noun: 'page', fields: { url: str('URL to open'), wait_until: { type: 'string', enum: ['load', 'domcontentloaded', 'networkidle'] } } },
      { noun: 'element', fields: { selector: str('CSS selector'), text: str('Text to type or expect') } },
      { noun: 'screenshot', fields: { full_page: { type: 'boolean', description: 'Capture the full scrollable page' }, selector: str('Only this element') } },
      { noun: 'cookie', fields: { name: str('Cookie name'), value: str('Cookie value'), domain: str('Cookie domain') } },
      { noun: 'console_log', fields: { level: { type: 'string', enum: ['log', 'info', 'warn', 'error'] }, limit: int('Most entries to return') } },
    ],
  },
];

const VERBS: ReadonlyArray<{
  readonly verb: string;
  readonly says: (noun: string, about: string) => string;
  readonly required: (fields: string[]) => string[];
}> = [
  { verb: 'get', says: (n, a) => `Get one ${n.replace(/_/g, ' ')} with all its details (${a}).`, required: (f) => f.slice(0, 1) },
  {
    verb: 'list',
    says: (n, a) => `List ${n.replace(/_/g, ' ')}s, newest first, with paging. Use it to find ids before calling the other ${a} tools.`,
    required: () => [],
  },
  { verb: 'create', says: (n) => `Create a ${n.replace(/_/g, ' ')}. Returns the created object, including its id and URL.`, required: (f) => f.slice(1, 3) },
  { verb: 'update', says: (n) => `Update fields of an existing ${n.replace(/_/g, ' ')}; fields left out keep their value.`, required: (f) => f.slice(0, 1) },
];

function tool(server: ServerTemplate, noun: ServerTemplate['nouns'][number], verb: (typeof VERBS)[number]): McpToolInfo {
  const fieldNames = Object.keys(noun.fields);
  const properties: Record<string, Schema> = { ...server.common, ...noun.fields };
  if (verb.verb === 'list') {
    properties.page = int('Page number, starting at 1', { minimum: 1 });
    properties.per_page = int('Results per page', { minimum: 1, maximum: 100, default: 30 });
  }
  return {
    name: `${verb.verb}_${noun.noun}`,
    description: verb.says(noun.noun, server.about),
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties,
      required: verb.required(fieldNames),
      additionalProperties: false,
    },
  };
}

/** Connected servers offering `count` tools in all (20 per server at most). */
export function syntheticMcpServers(count: number): McpServerSnapshot[] {
  const servers: McpServerSnapshot[] = [];
  let left = count;
  for (const server of SERVERS) {
    if (left <= 0) break;
    const tools: McpToolInfo[] = [];
    for (const noun of server.nouns) for (const verb of VERBS) if (tools.length < left) tools.push(tool(server, noun, verb));
    left -= tools.length;
    servers.push({
      name: server.name,
      status: 'connected',
      source: '/home/user/.smith/mcp.json',
      transport: 'stdio',
      tools,
      resources: [],
      resourceTemplates: [],
      prompts: [],
      instructions: server.about,
      serverInfo: { name: `${server.name}-mcp`, version: '1.0.0' },
    });
  }
  if (left > 0) throw new Error(`at most ${count - left} synthetic MCP tools`);
  return servers;
}
