import type { ToolName } from '../../shared/tool-catalogue.js';
import type { ToolProtocol } from '../providers/types.js';
import type { ToolSpec } from '../tool-kit/tool-spec.js';
import { toolSection } from './tool-section.js';

/** What the system prompt is built from. */
interface SystemPromptInput {
  readonly tools: readonly ToolSpec[];
  readonly cwd: string;
  readonly os: string;
  readonly shell: string;
  /** The role and instructions of the active mode. */
  readonly roleText?: string;
  /** Extra sections appended at the end (rules files, MCP servers). */
  readonly extraSections?: readonly string[];
  /** xml (default): the prompt teaches the XML format and documents every tool. native: the tools travel as definitions. */
  readonly toolProtocol?: ToolProtocol;
}

const DEFAULT_ROLE =
  'You are Smith, a highly skilled software engineer with extensive knowledge in many programming languages, frameworks, design patterns, and best practices.';

/**
 * Assembles the system prompt: role, tool-use protocol, the tools from their specs, rules, system
 * info. With native tool calling the XML format and the tool docs are left out: the vendor's tool
 * definitions carry them.
 */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const names = new Set<string>(input.tools.map((t) => t.name));
  const offers = (tool: ToolName) => names.has(tool);
  const native = input.toolProtocol === 'native';
  const sections = [
    input.roleText ?? DEFAULT_ROLE,
    native ? NATIVE_TOOL_USE : TOOL_USE,
    native ? '' : `# Tools\n\n${toolSection(input.tools)}`,
    toolUseGuidelines(offers, native),
    offers('replace_in_file') || offers('write_to_file') ? EDITING : '',
    `# System information\n\nOperating system: ${input.os}\nDefault shell: ${input.shell}\nWorkspace (current working directory): ${input.cwd}\nAll relative paths are relative to the workspace. You cannot change directory for file tools.`,
    OBJECTIVE,
    ...(input.extraSections ?? []),
  ];
  return sections.filter((s) => s.trim() !== '').join('\n\n====\n\n');
}

const TOOL_USE = `# Tool use

You have tools that run after the user approves them. Use exactly one tool per message; the result comes back in the user's next message. Work step by step: each tool use is informed by the result of the previous one.

Format a tool call as XML: the tool name is the outer tag and each parameter is a tag inside it:

<tool_name>
<parameter1_name>value1</parameter1_name>
<parameter2_name>value2</parameter2_name>
</tool_name>

Anything after the first complete tool call in a message is ignored.`;

const NATIVE_TOOL_USE = `# Tool use

You have tools that run after the user approves them. Call them through the tool-calling interface (their descriptions and parameters come with this request), never by writing a call as text; every parameter value is a string. The results come back in the user's next message. Work step by step: each tool use is informed by the results before it.

Calls that do not depend on each other may share one response: they run one after another, each with its own approval, and once the user denies one the rest are not run.`;

function toolUseGuidelines(offers: (tool: ToolName) => boolean, native: boolean): string {
  const lines = [
    '# Tool use guidelines',
    '',
    '1. In <thinking> tags, assess what you know and what you still need before choosing a tool.',
    native
      ? '2. Wait for the results of your tool calls before acting on them; never assume the outcome.'
      : '2. Use one tool per message and wait for its result; never assume the outcome.',
    '3. If a tool fails, read the error, fix the cause, and try again differently.',
  ];
  if (offers('ask_followup_question')) lines.push('4. Ask the user (ask_followup_question) only when your tools cannot find the answer.');
  if (offers('attempt_completion')) lines.push('5. When the task is done and every tool use has succeeded, call attempt_completion.');
  return lines.join('\n');
}

const EDITING = `# Editing files

- replace_in_file: the default for changing existing files; small, targeted SEARCH/REPLACE blocks.
- write_to_file: for new files, or when most of a file changes. Always write the complete file.
- After an edit the tool tells you the result; if the user changed your proposal, you get their patch. Base later SEARCH blocks on the file as it is now.`;

const OBJECTIVE = `# Objective

1. Analyse the task and set clear goals in a logical order.
2. Work through them one tool at a time.
3. Finish with attempt_completion: a final result, not a question.`;
