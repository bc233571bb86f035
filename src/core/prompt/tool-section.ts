import type { ToolSpec } from '../tool-kit/tool-spec.js';

/** The prompt's description of each tool, generated from the specs (never written by hand). */
export function toolSection(specs: readonly ToolSpec[]): string {
  return specs.map(describeTool).join('\n\n');
}

// No "Usage" block of `<param>param here</param>` lines: the Tool use section shows the XML form
// once, the parameters are listed by name, and the example shows a real call. Repeating the form
// for each tool cost about a tenth of the default prompt, and more with every tool added.
function describeTool(spec: ToolSpec): string {
  const params = spec.params.map((p) => `- ${p.name}: (${p.required ? 'required' : 'optional'}) ${p.description}`).join('\n');
  return `## ${spec.name}\nDescription: ${spec.description}\nParameters:\n${params}\nExample:\n${spec.example}`;
}
