// Facts a tool call produced or asked about, logged in the task's events beside the text written for
// the model. The panel and the CLI render from these fields and never parse that text.

/**
 * What a tool result records, one optional part per kind of tool (a tool fills the parts that
 * apply to it). Results logged before these parts existed have none: renderers then show the
 * output text alone.
 */
export interface ToolFacts {
  readonly command?: CommandFacts;
  readonly edit?: EditFacts;
  readonly read?: ReadFacts;
  readonly list?: ListFacts;
  readonly search?: SearchFacts;
  readonly outline?: OutlineFacts;
  readonly mcp?: McpFacts;
  readonly question?: QuestionFacts;
}

/** How a command's run ended. */
export type CommandEnd =
  /** It exited by itself: its exit code, or the signal that ended it (exitCode null). */
  | { readonly kind: 'exited'; readonly exitCode: number | null; readonly signal?: string }
  /** It ran past its timeout and was killed with everything it started. */
  | { readonly kind: 'timed_out'; readonly timeoutSeconds: number }
  /** It was left running in the background (session `sessionId`): it went quiet, or the user let it go on. */
  | { readonly kind: 'backgrounded'; readonly sessionId: number; readonly by: 'quiet' | 'user' };

/** execute_command. */
export interface CommandFacts {
  readonly command: string;
  readonly end: CommandEnd;
  /** What it printed, capped exactly as the model got it (head and tail kept, a note where the middle was cut). */
  readonly output: string;
  /** The middle of the output was cut to fit the cap. */
  readonly truncated: boolean;
  /** Paths the command named that .smithignore excludes (the user let it run anyway). */
  readonly ignoredPaths?: readonly string[];
}

/** write_to_file, replace_in_file, new_rule: the change that landed (no file contents). */
export interface EditFacts {
  /** Workspace-relative (absolute outside the workspace). */
  readonly path: string;
  readonly added: number;
  readonly removed: number;
  /** The file did not exist before. */
  readonly created: boolean;
  /** SHA-256 (hex) of the file's bytes before the edit; absent when it was created. */
  readonly sha256Before?: string;
  /** SHA-256 (hex) of the file's bytes as written (equal to before when nothing changed). */
  readonly sha256After: string;
  /** The user changed the proposal in the diff editor before it was saved. */
  readonly userEdited?: boolean;
}

/** read_file. */
export interface ReadFacts {
  readonly path: string;
  /** Lines shown, 1-based and inclusive; 0 and 0 for an empty file. */
  readonly firstLine: number;
  readonly lastLine: number;
  readonly totalLines: number;
  /** Less than the requested range came back (the line or character cap). */
  readonly truncated: boolean;
}

/** list_files. */
export interface ListFacts {
  readonly path: string;
  readonly recursive: boolean;
  readonly entries: number;
  /** The listing stopped at its limit. */
  readonly truncated: boolean;
}

/** search_files and search_mcp_tools. */
export interface SearchFacts {
  /** The folder or file searched; absent for a search of MCP tools. */
  readonly path?: string;
  /** The regex (search_files) or the words (search_mcp_tools). */
  readonly query: string;
  /** Files (for MCP tools: servers) with a match shown. */
  readonly files: number;
  readonly matches: number;
  /** More matched than are shown. */
  readonly truncated: boolean;
}

/** list_code_definition_names. */
export interface OutlineFacts {
  readonly path: string;
  /** Source files outlined. */
  readonly files: number;
  readonly definitions: number;
  /** Files left out: over the per-call limit, too large, unreadable. */
  readonly skipped: number;
}

/** use_mcp_tool, access_mcp_resource and the MCP discovery tools. */
export interface McpFacts {
  /** Absent when no one server was asked (list_mcp_servers and search_mcp_tools without one). */
  readonly server?: string;
  readonly tool?: string;
  readonly uri?: string;
  /** The server answered the call with an error result. */
  readonly isError: boolean;
}

/** ask_followup_question and plan_mode_respond. */
export interface QuestionFacts {
  /** False when no user could answer (a headless run). */
  readonly answered: boolean;
}

/** Lines added and removed by an edit. */
export interface LineStats {
  readonly added: number;
  readonly removed: number;
}

/**
 * An approval request exactly as the user is shown it: logged in `approval_asked`, it is what the
 * panel's approval bar and the CLI's prompt render.
 */
export interface ShownApproval {
  readonly callId: string;
  readonly tool: string;
  /** The call's parameters (always logged by the engine; optional so a host may ask without them). */
  readonly params?: Readonly<Record<string, string>>;
  /** One line the user reads first, e.g. "Edit src/app.ts (+3 -1)". */
  readonly summary: string;
  /** Workspace-relative (or absolute, when outside) path the call touches. */
  readonly path?: string;
  /** A unified diff of a proposed edit. */
  readonly diff?: string;
  /** Lines the proposed edit adds and removes. */
  readonly stats?: LineStats;
  readonly command?: string;
  /** Why the user is asked although the policy might have approved (outside the workspace, an ignored path). */
  readonly reason?: string;
}
