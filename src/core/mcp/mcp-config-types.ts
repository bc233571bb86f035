// The shapes of MCP server configuration, apart from the reading and merging in mcp-config.ts so that
// workspace-trust.ts can use them without importing mcp-config.ts back.

/** How Smith reaches one server: a child process on stdio, or a URL. */
export type McpTransportConfig =
  | {
      readonly type: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly cwd?: string;
    }
  | {
      readonly type: 'streamableHttp' | 'sse';
      readonly url: string;
      readonly headers: Readonly<Record<string, string>>;
      /** How to sign in when the server asks for OAuth; absent: dynamic client registration, any free callback port. */
      readonly oauth?: McpOAuthSettings;
    };

/** The entry's `oauth` settings, for a server whose authorization server does not register clients dynamically. */
export interface McpOAuthSettings {
  /** A client id registered with the authorization server ahead of time. */
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** The loopback port the browser returns to (the redirect URI registered for the client id); default: any free port. */
  readonly callbackPort?: number;
  /** The scopes to ask for, space-separated (default: what the server's metadata lists). */
  readonly scope?: string;
}

/** One valid server entry, after defaults. */
export interface McpServerConfig {
  readonly name: string;
  /** The file the entry came from (the one that won, when several define it). */
  readonly source: string;
  readonly transport: McpTransportConfig;
  readonly disabled: boolean;
  /** Tool names that run without asking. */
  readonly autoApprove: readonly string[];
  readonly timeoutSeconds: number;
  /** The user's own one-line note about the server, shown in discovery mode. */
  readonly description?: string;
}

/** Something wrong in a config file: the whole file (no server) or one entry. */
export interface McpConfigProblem {
  readonly file: string;
  readonly server?: string;
  readonly message: string;
}

/**
 * Where a config file lives and how relative paths in it resolve. Scopes: `global` is Smith's own
 * user file, `claude-user` Claude Code's user file (`~/.claude.json`), `workspace` a file the
 * repository ships (`.smith/mcp.json`, Claude Code's `.mcp.json`), `extra` the CLI's --mcp-config.
 */
export interface McpConfigSource {
  readonly path: string;
  readonly scope: 'global' | 'claude-user' | 'workspace' | 'extra';
  /** Folder a relative stdio `cwd` is resolved against. */
  readonly baseDir: string;
  /** Claude Code's user file: the project whose `projects[path].mcpServers` are read too (they win over the top-level ones). */
  readonly project?: string;
}

/** One file, read: its entries (valid or not), or why the file as a whole could not be used. */
export type McpConfigFile =
  | {
      readonly source: McpConfigSource;
      readonly ok: true;
      readonly missing: boolean;
      readonly entries: ReadonlyMap<string, McpServerConfig | McpConfigProblem>;
    }
  | { readonly source: McpConfigSource; readonly ok: false; readonly problem: McpConfigProblem };
