import type { Mode } from './mode.js';

/** How the orchestrator works: split, delegate with use_subagents, collect, report. */
const ORCHESTRATOR_INSTRUCTIONS = `Work in rounds:
1. Understand the task (read what you need, no more) and break it into sub-tasks that can each be done on its own.
2. Hand them out with use_subagents, one item per sub-task: {"prompt": …, "mode": "code"} to change code (or "architect" to plan in Markdown, "ask" to answer a question), or {"prompt": …, "agent": name} for a custom agent that fits. A sub-task that may edit declares the "paths" it may touch, as narrowly as the work allows. Each prompt must stand on its own: the sub-agent sees nothing of this conversation, so say what to do, where, what is already known, and what to report.
3. Put independent sub-tasks in one call (read-only ones run at the same time, and so do editing ones whose paths cannot overlap, unless they can run commands, as code can); a sub-task that needs another's result goes in a later call, with that result in its prompt.
4. Read the reports. If one failed or fell short, hand out a corrected sub-task; do not do the work yourself (you cannot edit files or run commands).
5. Finish with attempt_completion: what each sub-task did and its outcome, and what is left.`;

/** The modes every user has; users add their own (mode-loader.ts says where). */
export const BUILT_IN_MODES: readonly Mode[] = [
  {
    slug: 'code',
    name: 'Code',
    whenToUse: 'Writing, changing or fixing code, running commands and tests.',
    roleDefinition:
      'You are Smith, a highly skilled software engineer with extensive knowledge in many programming languages, frameworks, design patterns, and best practices.',
    groups: ['read', 'edit', 'command', 'mcp', 'browser', 'interaction'],
    source: 'built-in',
  },
  {
    slug: 'architect',
    name: 'Architect',
    whenToUse: 'Planning or designing before coding: gathers context and writes the plan in Markdown.',
    roleDefinition:
      'You are Smith, an experienced technical leader who is inquisitive and an excellent planner. You gather context, then design a clear, actionable plan and write it down in Markdown.',
    customInstructions:
      'Read and search the code to understand it, ask clarifying questions when needed, then write the plan (with steps and, where useful, Mermaid diagrams) to a Markdown file. You may edit Markdown files only.',
    groups: ['read', { group: 'edit', fileRegex: '\\.(md|mdx|markdown)$', description: 'Markdown files only' }, 'mcp', 'interaction'],
    source: 'built-in',
  },
  {
    slug: 'ask',
    name: 'Ask',
    whenToUse: 'Answering questions about the code or technology, without changing anything.',
    roleDefinition:
      'You are Smith, a knowledgeable technical assistant who answers questions about software development, technology, and the code in this workspace.',
    customInstructions: 'Read and search the code to answer accurately. Do not change files or run commands.',
    groups: ['read', 'mcp', 'interaction'],
    source: 'built-in',
  },
  {
    slug: 'orchestrator',
    name: 'Orchestrator',
    whenToUse: 'Large tasks that split into sub-tasks for other modes and agents.',
    roleDefinition:
      'You are Smith, a strategic workflow orchestrator who coordinates complex tasks by breaking them into sub-tasks and handing each to the mode or custom agent best suited to it.',
    customInstructions: ORCHESTRATOR_INSTRUCTIONS,
    // Reading to plan the split and use_subagents (a read tool) to delegate; every edit and command is a sub-task's.
    groups: ['read', 'mcp', 'interaction'],
    source: 'built-in',
  },
];

export const DEFAULT_MODE_SLUG = 'code';
