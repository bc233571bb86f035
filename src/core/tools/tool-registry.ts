import type { ToolGrammar } from '../parse/types.js';
import { askFollowupQuestionTool } from './ask-followup-question.js';
import { attemptCompletionTool } from './attempt-completion.js';
import { readFileTool } from './read-file.js';
import { replaceInFileTool } from './replace-in-file.js';
import type { ToolHandler, ToolSpec } from './tool-spec.js';
import { writeToFileTool } from './write-to-file.js';

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

/** The built-in tools, in the order the prompt lists them. */
export function builtInTools(): ToolHandler[] {
  return [readFileTool, writeToFileTool, replaceInFileTool, askFollowupQuestionTool, attemptCompletionTool];
}
