import type { Node, Parser } from 'web-tree-sitter';
import { loadParser } from '../code/grammar-loader.js';
import { changesWhatRuns } from './command-variables.js';
import { unwrap } from './command-wrappers.js';
import { commandBasename } from './wrapper-options.js';
import { renderWords, wordsOf, type ShellWord } from './shell-words.js';

/** One command the line runs, at any depth: in a pipeline, a substitution, a wrapper, a `-c` text. */
export interface ShellCommand {
  /** Its words as the program receives them (after quote removal; assignments before it left out). */
  readonly words: readonly ShellWord[];
  /**
   * For a wrapper (`sudo -u root`, `timeout 5`, `bash -c`): its own words, which an allow rule must
   * allow; what it runs is a command of its own in the list.
   */
  readonly own?: readonly ShellWord[];
  /** The wrappers it runs inside, outermost first (`sudo`, `bash -c`), for messages. */
  readonly via: readonly string[];
  /** Its words as one line, quoted where needed: what a rule is matched against and a message shows. */
  readonly text: string;
}

/** What a command line will run, as far as its words tell. */
export interface CommandLine {
  /** Every command it runs, wrappers unwrapped and `-c` / `eval` texts parsed again. */
  readonly commands: readonly ShellCommand[];
  /**
   * Why the commands it runs cannot be known for sure (a computed command name, `eval` of computed
   * text, PATH changed, a function defined …): never allowed by a rule, and asked when a deny or
   * ask rule for commands exists.
   */
  readonly opaque: readonly string[];
  /** Why a rule may not allow it although its commands are known: output written to a file. */
  readonly unallowable: readonly string[];
}

/** Texts run by texts (`bash -c "eval '…'"`) are followed this deep; deeper is opaque. */
const MAX_DEPTH = 8;

/**
 * Reads a command line with a real shell grammar (tree-sitter-bash) into the commands it will run:
 * each simple command's words after quote removal, wrappers (`sudo`, `env`, `xargs`, `find -exec`
 * …, see command-wrappers.ts) unwrapped and the texts of `bash -c`, `eval`, `watch` parsed again,
 * so that a rule for `rm` sees `\rm`, `/bin/rm`, `sudo env rm` and `sh -c "… && rm x"`.
 */
export async function analyseCommandLine(line: string): Promise<CommandLine> {
  const analysis = new Analysis(await loadParser('tree-sitter-bash.wasm'));
  analysis.script(line, 0, []);
  return { commands: analysis.commands, opaque: [...new Set(analysis.opaque)], unallowable: [...new Set(analysis.unallowable)] };
}

/** Builtins that assign to the variables named by their arguments. */
const ASSIGNING = new Set(['read', 'mapfile', 'readarray', 'getopts', 'let', 'printf', 'wait']);

class Analysis {
  readonly commands: ShellCommand[] = [];
  readonly opaque: string[] = [];
  readonly unallowable: string[] = [];
  /** Variables the line sets to something other than a number: arithmetic evaluates their value again. */
  private readonly assigned = new Set<string>();

  constructor(private readonly parser: Parser) {}

  script(text: string, depth: number, via: readonly string[]): void {
    if (depth > MAX_DEPTH) {
      this.opaque.push(`commands are nested more than ${MAX_DEPTH} deep`);
      return;
    }
    const tree = this.parser.parse(text);
    if (!tree) {
      this.opaque.push('the command could not be parsed');
      return;
    }
    try {
      for (const name of assignedNames(tree.rootNode)) this.assigned.add(name);
      const stack: Node[] = [tree.rootNode];
      for (let node = stack.pop(); node; node = stack.pop()) {
        this.node(node, text, depth, via);
        for (let i = node.childCount - 1; i >= 0; i--) {
          const child = node.child(i);
          if (child) stack.push(child);
        }
      }
    } finally {
      tree.delete();
    }
  }

  private node(node: Node, source: string, depth: number, via: readonly string[]): void {
    switch (node.type) {
      case 'ERROR':
        this.opaque.push('the command has a syntax error');
        return;
      case 'function_definition':
        this.opaque.push(`the line defines a function (${node.childForFieldName('name')?.text ?? '?'}), which can stand in for any command`);
        return;
      case 'command':
        this.command(node, source, depth, via);
        return;
      case 'variable_assignment':
      case 'for_statement':
      case 'unset_command':
      case 'declaration_command':
        this.assignment(node);
        return;
      case 'expansion':
        this.expansion(node);
        return;
      case 'subscript':
        this.subscript(node);
        return;
      case 'arithmetic_expansion':
        this.arithmetic(node);
        return;
      case 'binary_expression':
        this.comparison(node);
        return;
      case 'file_redirect':
        this.redirect(node);
        return;
      case 'command_substitution':
        this.backquoted(node.text, depth, via);
        return;
      case 'heredoc_body':
        if (expands(node)) for (const match of node.text.matchAll(/`((?:\\[\s\S]|[^`\\])*)`/g)) this.backquoted(match[0], depth, via, true);
        return;
    }
    if (node.isMissing) this.opaque.push('the command has a syntax error');
  }

  private command(node: Node, source: string, depth: number, via: readonly string[]): void {
    const parts: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      const field = node.fieldNameForChild(i);
      if (!child) continue;
      if (field === 'name') parts.push(...child.children.filter((part): part is Node => part !== null));
      else if (field === 'argument') parts.push(child);
    }
    const name = parts[0];
    // `(( … ))` is arithmetic, not a command.
    if (name?.type === 'arithmetic_expansion' && parts.length === 1 && name.text.startsWith('((')) return;
    this.words(wordsOf(parts, source), depth, via);
  }

  /** Judges one command's words: records it, then what it runs if it is a wrapper. */
  words(words: readonly ShellWord[], depth: number, via: readonly string[]): void {
    const name = words[0];
    if (!name) return;
    const text = renderWords(words);
    if (!name.literal) {
      this.opaque.push(`the command name of \`${text}\` is computed`);
      return;
    }
    if (depth > MAX_DEPTH) {
      this.opaque.push(`commands are nested more than ${MAX_DEPTH} deep`);
      return;
    }
    this.builtin(commandBasename(name.value), words);
    const wrapper = unwrap(words);
    const runs = wrapper && (wrapper.commands.length > 0 || wrapper.scripts.length > 0);
    this.commands.push({ words, ...(runs ? { own: wrapper.own } : {}), via, text });
    if (!wrapper) return;
    if (wrapper.opaque) this.opaque.push(wrapper.opaque);
    const inside = [...via, renderWords(wrapper.own.length > 0 ? wrapper.own : words.slice(0, 1))];
    for (const command of wrapper.commands) this.words(command, depth + 1, inside);
    for (const script of wrapper.scripts) this.script(script, depth + 1, inside);
  }

  /**
   * Inside backquotes a backslash before a backquote, `$` or backslash is removed before the text
   * runs, so a backquote inside backquotes (written with a backslash) runs a command; the grammar
   * does not read that, so such a text is read again with them removed. The grammar does not read backquotes in a here-document's body at
   * all (`always`).
   */
  private backquoted(text: string, depth: number, via: readonly string[], always = false): void {
    if (text.length < 2 || !text.startsWith('`') || !text.endsWith('`')) return;
    const body = text.slice(1, -1);
    if (always || /\\[`$\\]/.test(body)) this.script(body.replace(/\\([`$\\])/g, '$1'), depth + 1, via);
  }

  /** Builtins that change what later commands run: `alias`, `hash -p`, `enable -f`, and assignments by name. */
  private builtin(name: string, words: readonly ShellWord[]): void {
    const args = words.slice(1);
    if (name === 'alias' && args.some((word) => !word.literal || word.value.includes('=')))
      this.opaque.push('the line defines an alias, which can stand in for any command');
    if (name === 'hash' && args.some((word) => !word.literal || /^-\w*p/.test(word.value)))
      this.opaque.push('hash -p makes a command name run another program');
    if (name === 'enable' && args.some((word) => !word.literal || /^-\w*f/.test(word.value))) this.opaque.push('enable -f loads a builtin from a file');
    if (
      name === 'let' &&
      args.some((word) => !word.literal || word.value.includes('[') || [...this.assigned].some((variable) => new RegExp(`\\b${variable}\\b`).test(word.value)))
    ) {
      this.opaque.push('let evaluates a variable the line sets, or computed text, as arithmetic');
    }
    if (ASSIGNING.has(name)) {
      for (const word of args) {
        const variable = word.value.split('=')[0]!;
        if (!word.literal) continue;
        if (changesWhatRuns(variable)) this.opaque.push(`${name} sets ${variable}, which changes what a command runs`);
        else if (/^[A-Za-z_]\w*\[/.test(word.value)) this.opaque.push(`${name} names an array element, whose subscript the shell evaluates`);
      }
    }
  }

  /** `PATH=…`, `export PATH=…`, `for IFS in …`, `unset PATH`. */
  private assignment(node: Node): void {
    const names: string[] = [];
    const name = node.childForFieldName('name') ?? node.childForFieldName('variable');
    if (name) names.push(name.type === 'subscript' ? (name.childForFieldName('name')?.text ?? name.text) : name.text);
    if (node.type === 'unset_command' || node.type === 'declaration_command') {
      for (const child of node.namedChildren) if (child && (child.type === 'variable_name' || child.type === 'word')) names.push(child.text.split('=')[0]!);
    }
    for (const variable of names) if (changesWhatRuns(variable)) this.opaque.push(`the line sets ${variable}, which changes what a command runs`);
  }

  /** `${x@P}` and other transformations, `${!x}` indirection, `${PATH:=…}`. */
  private expansion(node: Node): void {
    const operators: string[] = [];
    for (let i = 0; i < node.childCount; i++) if (node.fieldNameForChild(i) === 'operator') operators.push(node.child(i)?.text ?? '');
    const first = node.child(1);
    if (operators.includes('@')) this.opaque.push(`the parameter transformation ${node.text} can run commands`);
    if (first?.text === '!') this.opaque.push(`the indirect expansion ${node.text} can evaluate a subscript`);
    const variable = node.namedChildren.find((child) => child?.type === 'variable_name')?.text;
    if (variable && changesWhatRuns(variable) && operators.some((op) => /^:?=$/.test(op)))
      this.opaque.push(`the line sets ${variable}, which changes what a command runs`);
  }

  /** An index other than a number is arithmetic, which the shell evaluates again (`a[$x]`, `a[i]`). */
  private subscript(node: Node): void {
    const index = node.childForFieldName('index');
    if (index && !(index.type === 'number' || /^(?:\d+|[@*])$/.test(index.text))) this.opaque.push(`the subscript ${node.text} is evaluated as arithmetic`);
  }

  /** Arithmetic evaluates the value of each variable it reads; one set in the line may hold `a[$(…)]`. */
  private arithmetic(node: Node): void {
    const stack: Node[] = [node];
    for (let current = stack.pop(); current; current = stack.pop()) {
      if (current.type === 'variable_name' && (this.assigned.has(current.text) || changesWhatRuns(current.text))) {
        this.opaque.push(`the arithmetic ${node.text} reads ${current.text}, whose value it evaluates again`);
        return;
      }
      for (const child of current.namedChildren) if (child && child.type !== 'command_substitution') stack.push(child);
    }
  }

  /** `[[ $x -eq 1 ]]` compares arithmetic: each side is evaluated as an arithmetic expression. */
  private comparison(node: Node): void {
    const operator = node.childForFieldName('operator');
    if (operator?.type !== 'test_operator' || !/^-(?:eq|ne|lt|le|gt|ge)$/.test(operator.text)) return;
    for (const side of [node.childForFieldName('left'), node.childForFieldName('right')]) {
      if (!side) continue;
      const name =
        side.type === 'word'
          ? side.text
          : side.type === 'simple_expansion' || side.type === 'expansion'
            ? side.namedChildren.find((child) => child?.type === 'variable_name')?.text
            : undefined;
      if (side.text.includes('[') || (name !== undefined && this.assigned.has(name))) {
        this.opaque.push(`the comparison ${node.text} evaluates ${side.text} as arithmetic`);
        return;
      }
    }
  }

  private redirect(node: Node): void {
    const operator = node.children.find((child) => child !== null && /[<>]/.test(child.type))?.type ?? '';
    const destination = node.childForFieldName('destination') ?? node.lastChild;
    if (!destination || destination.type === 'process_substitution') return;
    const target = destination.text;
    // `2>&1` duplicates a descriptor; `> /dev/null` discards; anything else writes a file.
    const duplicate = operator.includes('&') && /^&?\d+$|^-$/.test(target);
    if (operator.includes('>') && target !== '/dev/null' && !duplicate) this.unallowable.push(`output is written to ${target}`);
  }
}

/** Whether a here-document's body expands: its delimiter is not quoted (`<<EOF`, not `<<'EOF'` or `<<\EOF`). */
function expands(body: Node): boolean {
  const start = body.parent?.children.find((child) => child?.type === 'heredoc_start');
  return !start || !/['"\\]/.test(start.text);
}

/** The variables a line sets to something other than a number, so arithmetic reading them can be recognised. */
function assignedNames(root: Node): Set<string> {
  const names = new Set<string>();
  const stack: Node[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'variable_assignment') {
      const name = node.childForFieldName('name');
      const value = node.childForFieldName('value');
      if (name?.type === 'variable_name' && !(value?.type === 'number' || /^-?\d+$/.test(value?.text ?? ''))) names.add(name.text);
    }
    for (const child of node.namedChildren) if (child) stack.push(child);
  }
  return names;
}
