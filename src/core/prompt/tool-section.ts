import type { ToolSpec } from '../tool-kit/tool-spec.js';

/** The prompt's description of each tool, generated from the specs (never written by hand). */
export function toolSection(specs: readonly ToolSpec[]): string {
  return specs.map(describeTool).join('\n\n');
}

function describeTool(spec: ToolSpec): string {
  const params = spec.params.map((p) => `- ${p.name}: (${p.required ? 'required' : 'optional'}) ${p.description}`).join('\n');
  const usage = [`<${spec.name}>`, ...spec.params.map((p) => `<${p.name}>${p.name} here</${p.name}>`), `</${spec.name}>`].join('\n');
  return `## ${spec.name}\nDescription: ${spec.description}\nParameters:\n${params}\nUsage:\n${usage}\nExample:\n${spec.example}`;
}
