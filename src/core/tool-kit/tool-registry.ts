import type { ToolGrammar } from '../parse/types.js';
import type { ToolHandler, ToolSpec } from './tool-spec.js';

/** The tools a task can use, by name. Prompt text and parser grammar derive from their specs. */
export class ToolRegistry {
  private readonly handlers = new Map<string, ToolHandler>();

  constructor(handlers: readonly ToolHandler[] = []) {
    for (const handler of handlers) this.register(handler);
  }

  register(handler: ToolHandler): void {
    if (this.handlers.has(handler.spec.name)) throw new Error(`Tool ${handler.spec.name} is registered twice`);
    this.handlers.set(handler.spec.name, handler);
  }

  get(name: string): ToolHandler | undefined {
    return this.handlers.get(name);
  }

  specs(): ToolSpec[] {
    return [...this.handlers.values()].map((h) => h.spec);
  }

  /** What the streaming parser needs to tell tool tags from other text. */
  grammar(): ToolGrammar {
    return { tools: new Map(this.specs().map((s) => [s.name, s.params.map((p) => p.name)])) };
  }
}
