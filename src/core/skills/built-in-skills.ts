import type { Skill } from './skill.js';

/** The skills every user has; users add their own in .smith/skills. */
export const BUILT_IN_SKILLS: readonly Skill[] = [
  {
    slug: 'code',
    name: 'Code',
    roleDefinition:
      'You are Smith, a highly skilled software engineer with extensive knowledge in many programming languages, frameworks, design patterns, and best practices.',
    groups: ['read', 'edit', 'command', 'mcp', 'browser', 'interaction'],
    source: 'built-in',
  },
  {
    slug: 'architect',
    name: 'Architect',
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
    roleDefinition:
      'You are Smith, a knowledgeable technical assistant who answers questions about software development, technology, and the code in this workspace.',
    customInstructions: 'Read and search the code to answer accurately. Do not change files or run commands.',
    groups: ['read', 'mcp', 'interaction'],
    source: 'built-in',
  },
];

export const DEFAULT_SKILL_SLUG = 'code';
