import type { ToolGroup } from '../../shared/tool-catalogue.js';

/** Which tool calls run without asking; data, so each host maps its own settings onto it. */
export interface AutoApprovePolicy {
  readonly readFiles: boolean;
  readonly editFiles: boolean;
  /** Commands the model itself marked requires_approval=false. */
  readonly safeCommands: boolean;
  readonly allCommands: boolean;
  readonly mcpTools: boolean;
  /** The web tools: browser_action's launch, web_fetch's first page of each host, and each web_search (absent: ask). */
  readonly browser?: boolean;
  /** Lets even paths outside the workspace through (CLI: --allow-outside-workspace). */
  readonly outsideWorkspace: boolean;
  /** After this many auto-approved calls in a row, ask once anyway (0 = no cap). */
  readonly maxConsecutive: number;
  /**
   * Why commands would run without the sandbox the user asked for (bubblewrap is missing): then
   * every command is asked for, whatever would approve it (this policy, an allow rule, a hook).
   */
  readonly unconfinedCommands?: string;
}

/** Nothing runs without asking but reads inside the workspace. */
export const DEFAULT_POLICY: AutoApprovePolicy = {
  readFiles: true,
  editFiles: false,
  safeCommands: false,
  allCommands: false,
  mcpTools: false,
  outsideWorkspace: false,
  maxConsecutive: 0,
};

/** Everything inside the workspace is approved (CLI --yes). */
export const APPROVE_ALL_POLICY: AutoApprovePolicy = {
  readFiles: true,
  editFiles: true,
  safeCommands: true,
  allCommands: true,
  mcpTools: true,
  browser: true,
  outsideWorkspace: false,
  maxConsecutive: 0,
};

/** The facts about one call that decide whether it may skip the question. */
export interface ApprovalFacts {
  readonly group: ToolGroup;
  readonly outsideWorkspace?: boolean;
  /** For commands: what the model said about its own command. */
  readonly requiresApproval?: boolean;
  /** For MCP tools listed in the server's autoApprove. */
  readonly serverAutoApproved?: boolean;
  /** The call names a path excluded by .smithignore (e.g. a command reading it): always ask. */
  readonly touchesIgnoredPath?: boolean;
}

/** Returns true when the policy lets this call run without asking. */
export function isAutoApproved(policy: AutoApprovePolicy, facts: ApprovalFacts): boolean {
  if (facts.outsideWorkspace && !policy.outsideWorkspace) return false;
  if (facts.touchesIgnoredPath) return false;
  switch (facts.group) {
    case 'read':
      return policy.readFiles;
    case 'edit':
      return policy.editFiles;
    case 'command':
      return policy.allCommands || (policy.safeCommands && facts.requiresApproval === false);
    case 'mcp':
      return policy.mcpTools || facts.serverAutoApproved === true;
    case 'browser':
      return policy.browser === true;
    case 'interaction':
      return true;
  }
}
