// Custom agents: Markdown files with YAML front matter (`name`, `description`, `tools`, `model`)
// whose body is the agent's system prompt, in Claude Code's format, so the agents users already
// wrote for it work here. The model delegates to one by name with use_subagents.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { WorkspaceTrustCheck } from '../mcp/workspace-trust.js';
import { ContainedFiles, type LoaderCaps } from '../workspace/contained-files.js';
import { splitFrontMatter } from '../workspace/front-matter.js';
import { agentToolNames, inheritedAgentTools, mapAgentTools, type AgentTools } from './agent-tools.js';

/** One agent: who it is, when to use it, what it may use, which model it asks. */
export interface AgentDefinition {
  readonly name: string;
  readonly description: string;
  /** The body: the agent's system prompt. */
  readonly prompt: string;
  /** Its tools in Smith's names; every tool a sub-agent may have when the file names none. */
  readonly tools: AgentTools;
  /** As written: `inherit`, `sonnet`, `opus`, `haiku` or a model id (see agent-model.ts); absent inherits. */
  readonly model?: string;
  /** The file it came from. */
  readonly source: string;
}

/** The agents found, what was wrong with files, and the workspace's agents that wait for trust. */
export interface AgentCatalog {
  readonly agents: readonly AgentDefinition[];
  readonly problems: readonly string[];
  /** The workspace has agent files the user has not trusted (yet): they are not used. */
  readonly heldBack?: HeldBackAgents;
}

/** A workspace's agent files held back until the user trusts them, exactly as they are now. */
export interface HeldBackAgents {
  readonly trustKey: string;
  readonly fingerprint: string;
  readonly decision: 'denied' | 'unknown';
  readonly files: readonly string[];
}

/** Where agents are read from. */
export interface AgentFolders {
  /** The user's own folders, lowest precedence first (`~/.claude/agents`, `<storage>/agents`). */
  readonly userDirs: readonly string[];
  /** The workspace folder whose `.claude/agents` and `.smith/agents` are read (these win over the user's). */
  readonly workspaceRoot?: string;
  /** Whether the user trusts this workspace's agent files; absent: they are trusted (tests, a replay). */
  readonly trust?: WorkspaceTrustCheck;
}

/** What the loader reads at most: 64 KiB of one file (a larger one is skipped), 1 MiB in all, 1,000 entries per folder. */
const AGENT_CAPS: LoaderCaps = { fileBytes: 64 * 1024, totalBytes: 1024 * 1024, entries: 1000 };

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** The workspace's agent folders, lowest precedence first. */
export const WORKSPACE_AGENT_DIRS = ['.claude/agents', '.smith/agents'] as const;

/**
 * Loads the agents: the user's folders, then the workspace's (a later file with the same name
 * replaces an earlier one). A workspace's files are read only where their real path lies inside
 * it, within the caps, and used only once the user trusts them as they are (a changed or added
 * file asks again); a broken file is reported and skipped.
 */
export function loadAgents(folders: AgentFolders): AgentCatalog {
  const files = new ContainedFiles({ within: folders.workspaceRoot ? [folders.workspaceRoot] : [], trusted: folders.userDirs, caps: AGENT_CAPS });
  const byName = new Map<string, AgentDefinition>();
  const problems: string[] = [];
  const read = (dir: string) =>
    files.listFiles(dir, { recursive: false, match: (name) => name.toLowerCase().endsWith('.md') }).flatMap(({ path }) => {
      const text = files.readText(path, 'skip');
      return text === undefined ? [] : [{ path, text }];
    });
  for (const dir of folders.userDirs) for (const file of read(dir)) add(file.path, file.text, byName, problems);
  let heldBack: HeldBackAgents | undefined;
  if (folders.workspaceRoot) {
    const root = folders.workspaceRoot;
    const workspaceFiles = WORKSPACE_AGENT_DIRS.flatMap((dir) => read(join(root, dir)));
    const fingerprint = createHash('sha256')
      .update(JSON.stringify(workspaceFiles.map((file) => [file.path, file.text])))
      .digest('hex');
    const trustKey = `${root}#agents`;
    const decision = workspaceFiles.length === 0 || !folders.trust ? 'trusted' : folders.trust(trustKey, fingerprint);
    if (decision === 'trusted') for (const file of workspaceFiles) add(file.path, file.text, byName, problems);
    else heldBack = { trustKey, fingerprint, decision, files: workspaceFiles.map((file) => file.path) };
  }
  problems.push(...files.skipped.map((entry) => `Agent file ${entry.path} could not be read: ${entry.reason}`));
  return { agents: [...byName.values()], problems, ...(heldBack ? { heldBack } : {}) };
}

function add(path: string, text: string, byName: Map<string, AgentDefinition>, problems: string[]): void {
  const parsed = parseAgentFile(path, text);
  if (typeof parsed === 'string') problems.push(parsed);
  else {
    byName.set(parsed.name, parsed);
    if (parsed.tools.ignored.length > 0) problems.push(`Agent ${parsed.name} (${path}): left out ${parsed.tools.ignored.join(', ')}`);
  }
}

/** One agent file, or what is wrong with it. */
export function parseAgentFile(path: string, text: string): AgentDefinition | string {
  const split = splitFrontMatter(text);
  const bad = (why: string) => `Agent file ${path} is not used: ${why}`;
  if (!split.present) return bad('it has no front matter (--- name: … description: … ---)');
  if (split.problem) return bad(split.problem);
  const { name, description, tools, model } = split.fields;
  if (typeof name !== 'string' || !NAME.test(name.trim())) return bad('name must be lowercase letters, digits, "-" or "_" (at most 64)');
  if (typeof description !== 'string' || description.trim() === '') return bad('it has no description (it says when to use the agent)');
  if (model !== undefined && model !== null && (typeof model !== 'string' || model.trim() === ''))
    return bad('model must be inherit, sonnet, opus, haiku or a model id');
  const names = agentToolNames(tools);
  if (typeof names === 'string') return bad(names);
  const prompt = split.body.trim();
  if (prompt === '') return bad('its body (the system prompt) is empty');
  return {
    name: name.trim(),
    description: description.trim(),
    prompt,
    tools: names === undefined ? inheritedAgentTools() : mapAgentTools(names),
    ...(typeof model === 'string' && model.trim() !== 'inherit' ? { model: model.trim() } : {}),
    source: path,
  };
}
