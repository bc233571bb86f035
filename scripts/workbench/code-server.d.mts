// Types for code-server.mjs, so the TypeScript tests and helpers can use it.

/** User settings written before code-server starts. */
export declare const QUIET_SETTINGS: Readonly<Record<string, unknown>>;

/** One `[name, value]` pair of the workbench's `payload` query parameter. */
export type WorkbenchPayload = Array<[string, string]>;

export interface StartCodeServerOptions {
  /** Folder the workbench opens. */
  workspace: string;
  /** Where user data, extensions, TMPDIR and the log go; a fresh temp dir by default. */
  runDir?: string;
  /** The .vsix files installed into the run's extensions dir before the server starts. */
  vsix?: string | readonly string[];
  /** Extra environment for the server and so for the extension host (e.g. SMITH_API_KEY). */
  env?: Record<string, string>;
  /** Settings merged over QUIET_SETTINGS. */
  settings?: Record<string, unknown>;
  port?: number;
  startTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface CodeServer {
  readonly url: string;
  readonly port: number;
  readonly pgid: number;
  readonly workspace: string;
  readonly runDir: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly tmpDir: string;
  readonly xdgConfigDir: string;
  readonly logFile: string;
  /** The page that opens `folder` (default: the workspace), optionally with a dev/test payload. */
  workbenchUrl(options?: { folder?: string; payload?: WorkbenchPayload }): string;
  /** Installed extension ids (publisher.name). */
  listExtensions(): Promise<string[]>;
  /** The last lines of code-server's log, for failure messages. */
  logTail(lines?: number): string;
  /** Settles when the main code-server process exits (after stop(), or on a crash). */
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  /** Stops the whole process group; removes the run dir unless told to keep it. */
  stop(options?: { keepRunDir?: boolean }): Promise<void>;
}

/** Starts code-server on 127.0.0.1 and resolves once /healthz answers. */
export declare function startCodeServer(options: StartCodeServerOptions): Promise<CodeServer>;

/** The payload that runs an unpackaged extension (and optionally mocha tests) in the workbench. */
export declare function developmentPayload(options: { extensionDevelopmentPath: string; extensionTestsPath?: string }): WorkbenchPayload;
