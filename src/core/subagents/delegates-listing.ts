import { modeSummary, type Mode } from '../modes/mode.js';
import type { AgentDefinition } from './agent-files.js';

/** Characters of an agent's description shown in the tool's description (the file may say more). */
const DESCRIPTION_CHARS = 200;

/**
 * The agents and modes a sub-agent can run as, for use_subagents' description: each mode with when
 * to use it, then the custom agents. A mode whose file the user's Read rules withhold (`withheld`)
 * is named without its text.
 */
export function delegatesListing(agents: readonly AgentDefinition[], modes: readonly Mode[], withheld: (path: string) => boolean = () => false): string {
  const summary = (mode: Mode) => (mode.source !== 'built-in' && withheld(mode.source) ? '(its file is withheld by a Read rule)' : modeSummary(mode));
  const modeLine = `\nModes ("mode"):\n${modes.map((mode) => `- ${mode.slug}: ${summary(mode)}`).join('\n')}`;
  if (agents.length === 0) return modeLine;
  const lines = agents.map((agent) => {
    const description = agent.description.replace(/\s+/g, ' ');
    const cut = description.length > DESCRIPTION_CHARS ? `${description.slice(0, DESCRIPTION_CHARS - 1)}…` : description;
    const tools = agent.tools.mcp.includes('mcp__')
      ? 'every tool'
      : [...agent.tools.tools.filter((t) => t !== 'attempt_completion'), ...agent.tools.mcp].join(', ') || 'no tools';
    return `- ${agent.name}: ${cut} (${tools})`;
  });
  return `${modeLine}\nCustom agents ("agent"):\n${lines.join('\n')}`;
}
