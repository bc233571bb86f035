import type { Node } from 'web-tree-sitter';
import { loadParser } from '../code/grammar-loader.js';

/** A command line split into the simple commands it runs. */
export interface SplitCommand {
  /** Every simple command, including those inside `$(…)`, backticks, subshells and pipelines, whitespace-normalised. */
  readonly commands: readonly string[];
  /**
   * Why the line cannot be judged from its words alone (a syntax error, a command name that is
   * an expansion, output redirected to a file, `eval`); such a line is never allowed by a rule.
   */
  readonly opaque: readonly string[];
}

/** Shell words that run other text as a command: an allow rule naming them would allow anything. */
const RUNS_TEXT = new Set(['eval', 'source', '.', 'exec', 'xargs', 'sudo', 'env', 'nohup', 'time', 'timeout', 'nice', 'command', 'builtin']);

/**
 * Splits a command line with a real shell grammar (tree-sitter-bash), so that a rule for
 * `git status` does not cover `git status; rm -rf ~`, `git status && curl … | sh` or
 * `git status $(rm -rf ~)`.
 */
export async function splitCommand(line: string): Promise<SplitCommand> {
  const parser = await loadParser('tree-sitter-bash.wasm');
  const tree = parser.parse(line);
  if (!tree) return { commands: [], opaque: ['the command could not be parsed'] };
  const commands: string[] = [];
  const opaque: string[] = [];
  const stack: Node[] = [tree.rootNode];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'ERROR' || node.isMissing) opaque.push('the command has a syntax error');
    if (node.type === 'command') {
      const name = node.childForFieldName('name');
      const text = normalise(node.text);
      commands.push(text);
      if (!name || name.children.some((child) => child.type !== 'word') || name.text.includes('$')) opaque.push(`the command name of "${text}" is computed`);
      else if (RUNS_TEXT.has(name.text)) opaque.push(`"${name.text}" runs other text as a command`);
    }
    if (node.type === 'file_redirect') {
      const operator = node.children.find((child) => /[<>]/.test(child.type))?.type ?? '';
      const destination = node.childForFieldName('destination')?.text ?? node.lastChild?.text ?? '';
      // `2>&1` duplicates a descriptor; `> /dev/null` discards; anything else writes a file.
      const duplicate = operator.includes('&') && /^&?\d+$/.test(destination);
      if (operator.includes('>') && destination !== '/dev/null' && !duplicate) opaque.push(`output is written to ${destination}`);
    }
    for (let i = node.childCount - 1; i >= 0; i--) {
      const child = node.child(i);
      if (child) stack.push(child);
    }
  }
  tree.delete();
  return { commands, opaque };
}

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
