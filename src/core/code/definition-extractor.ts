import type { Node } from 'web-tree-sitter';
import type { CodeLanguage } from './code-languages.js';
import { loadGrammar } from './grammar-loader.js';

/** What a definition is, from the query's `@definition.<kind>` capture. */
type DefinitionKind = 'class' | 'interface' | 'type' | 'enum' | 'struct' | 'trait' | 'impl' | 'module' | 'function' | 'method' | 'macro';

/** One definition found in a source file. */
export interface CodeDefinition {
  readonly name: string;
  readonly kind: DefinitionKind;
  /** 0-based line to show for it: where its name is, or its first line when the name comes after its body. */
  readonly line: number;
}

interface Found extends CodeDefinition {
  readonly start: number;
  readonly end: number;
}

// Children that come before a definition's real first line (decorators, annotations, attributes).
const PREAMBLE = new Set(['decorator', 'annotation', 'marker_annotation', 'attribute_list', 'attribute_item', 'comment', 'line_comment', 'block_comment']);
const CALLABLE: ReadonlySet<DefinitionKind> = new Set(['function', 'method']);

/**
 * The definitions of a source file in source order. Definitions inside a function or method
 * body (local helpers, callbacks) are left out; members of classes, modules and impls are kept.
 */
export async function extractDefinitions(source: string, language: CodeLanguage): Promise<CodeDefinition[]> {
  const { parser, definitions } = await loadGrammar(language);
  const tree = parser.parse(source);
  if (!tree) return [];
  const found = new Map<number, Found>();
  try {
    for (const match of definitions.matches(tree.rootNode)) {
      const definition = match.captures.find((capture) => capture.name.startsWith('definition.'));
      const name = match.captures.find((capture) => capture.name === 'name');
      if (!definition || !name || found.has(definition.node.id)) continue;
      found.set(definition.node.id, {
        name: name.node.text,
        kind: definition.name.slice('definition.'.length) as DefinitionKind,
        line: lineToShow(definition.node, name.node, source),
        start: definition.node.startIndex,
        end: definition.node.endIndex,
      });
    }
  } finally {
    tree.delete();
  }
  return outsideCallables([...found.values()]).map(({ name, kind, line }) => ({ name, kind, line }));
}

/** Drops every definition that lies inside a function or method. */
function outsideCallables(all: Found[]): Found[] {
  const sorted = all.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Found[] = [];
  let callableEnd = -1;
  for (const definition of sorted) {
    if (definition.start < callableEnd) continue;
    kept.push(definition);
    if (CALLABLE.has(definition.kind)) callableEnd = definition.end;
  }
  return kept;
}

/**
 * The name's line reads best (`static int\nsquare(int v)` shows `square(int v)`), except when the
 * name follows a body, as in `typedef struct { ... } Size;`: then the definition's first line.
 */
function lineToShow(definition: Node, name: Node, source: string): number {
  if (!source.slice(definition.startIndex, name.startIndex).includes('{')) return name.startPosition.row;
  return firstCodeRow(definition);
}

/** The row of the first child that is not a decorator, annotation or attribute. */
function firstCodeRow(node: Node): number {
  for (const child of node.children) {
    if (PREAMBLE.has(child.type)) continue;
    if (child.type === 'modifiers') {
      const first = child.children.find((modifier) => !PREAMBLE.has(modifier.type));
      if (first) return first.startPosition.row;
      continue;
    }
    return child.startPosition.row;
  }
  return node.startPosition.row;
}
