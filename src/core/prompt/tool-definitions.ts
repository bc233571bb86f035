import type { ToolDefinition } from '../providers/types.js';
import type { ToolSpec } from '../tool-kit/tool-spec.js';

/**
 * The tools for native tool calling, generated from the same specs as the XML prompt section:
 * every parameter is a string property, the required ones listed.
 */
export function toolDefinitions(specs: readonly ToolSpec[]): ToolDefinition[] {
  return specs.map((spec) => ({
    name: spec.name,
    description: spec.description,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(spec.params.map((p) => [p.name, { type: 'string' as const, description: p.description }])),
      required: spec.params.filter((p) => p.required).map((p) => p.name),
    },
  }));
}
