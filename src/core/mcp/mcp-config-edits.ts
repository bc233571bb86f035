// Edits of one server entry in an MCP config file's text that keep the user's comments, order and
// layout: only the touched value changes. jsonc-parser's modify replaces values well, but its
// inserts either land on one line (unformatted) or reformat the neighbouring lines (formatted),
// and its removal of an array's last item cuts the wrong range when comments sit in the array, so
// inserts and removals are computed here from the parse tree and applied with applyEdits.
// The same ESM build mcp-config.ts reads the files with (the UMD build does not bundle).
import {
  applyEdits,
  createScanner,
  findNodeAtLocation,
  modify,
  parseTree,
  printParseErrorCode,
  SyntaxKind,
  type Edit,
  type Node,
  type ParseError,
} from 'jsonc-parser/lib/esm/main.js';

/** The `{"mcpServers": {}}` a new config file starts with. */
export const EMPTY_MCP_CONFIG_TEXT = '{\n  "mcpServers": {}\n}\n';

/** Sets `"disabled": true|false` on the server's entry. */
export function setServerDisabled(text: string, server: string, disabled: boolean): string {
  return setProperty(text, entryNode(text, server), 'disabled', disabled);
}

/** Adds the tool to the entry's autoApprove list, or removes every occurrence of it. */
export function setToolAutoApprove(text: string, server: string, tool: string, autoApprove: boolean): string {
  const entry = entryNode(text, server);
  // Roo Code's files say alwaysAllow; the engine reads autoApprove first, so that is the one to edit when both exist.
  const key = findNodeAtLocation(entry, ['autoApprove']) ? 'autoApprove' : findNodeAtLocation(entry, ['alwaysAllow']) ? 'alwaysAllow' : 'autoApprove';
  const list = findNodeAtLocation(entry, [key]);
  if (!list) return autoApprove ? setProperty(text, entry, key, [tool]) : text;
  if (list.type !== 'array') throw new Error(`"${key}" of MCP server "${server}" is not a list; fix it in the file first.`);
  const items = list.children ?? [];
  if (autoApprove) return items.some((item) => item.value === tool) ? text : applyEdits(text, appendEdits(text, list, JSON.stringify(tool)));
  let next = text;
  // From the end, re-parsing each time, so every removal works on the current text.
  for (let index = items.length - 1; index >= 0; index--) {
    if (items[index]!.value !== tool) continue;
    const current = findNodeAtLocation(entryNode(next, server), [key])!;
    next = applyEdits(next, removeEdits(next, current, index));
  }
  return next;
}

function entryNode(text: string, server: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const { line, column } = position(text, errors[0]!.offset);
    throw new Error(`The MCP config file is not valid JSON (${printParseErrorCode(errors[0]!.error)} at line ${line}, column ${column}); fix it first.`);
  }
  const entry = root && findNodeAtLocation(root, ['mcpServers', server]);
  if (entry?.type !== 'object') throw new Error(`The MCP config file does not define a server "${server}".`);
  return entry;
}

/** Replaces the property's value, or adds the property after the object's last one. */
function setProperty(text: string, object: Node, key: string, value: unknown): string {
  const existing = findNodeAtLocation(object, [key]);
  if (existing) return applyEdits(text, modify(text, [...pathOf(existing)], value, {}));
  return applyEdits(text, appendEdits(text, object, `${JSON.stringify(key)}: ${JSON.stringify(value)}`));
}

function pathOf(node: Node): (string | number)[] {
  const path: (string | number)[] = [];
  let child = node;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === 'property') path.unshift(parent.children![0]!.value as string);
    else if (parent.type === 'array') path.unshift(parent.children!.indexOf(child));
  }
  return path;
}

/** Adds an item (a value, or `"key": value`) after the container's last one, laid out like it. */
function appendEdits(text: string, container: Node, item: string): Edit[] {
  const last = container.children?.at(-1);
  if (!last) return [{ offset: container.offset + 1, length: container.length - 2, content: item }];
  const end = last.offset + last.length;
  const comma = commaAfter(text, end);
  if (!aloneOnLine(text, last))
    return comma === undefined ? [{ offset: end, length: 0, content: `, ${item}` }] : [{ offset: comma + 1, length: 0, content: ` ${item}` }];
  // On its own line: the new item gets a line of its own with the same indentation, after any comment.
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lineEnd = endOfLine(text, end);
  const indent = text.slice(lineStart(text, last.offset), last.offset);
  const insert: Edit = { offset: lineEnd, length: 0, content: `${eol}${indent}${item}` };
  return comma === undefined ? [{ offset: end, length: 0, content: ',' }, insert] : [insert];
}

/** Removes one array item with its separator; an item on its own line goes with its line. */
function removeEdits(text: string, array: Node, index: number): Edit[] {
  const items = array.children!;
  const item = items[index]!;
  const end = item.offset + item.length;
  if (items.length === 1) {
    const inside = text.slice(array.offset + 1, item.offset) + text.slice(end, array.offset + array.length - 1);
    return inside.trim() === '' || inside.trim() === ','
      ? [{ offset: array.offset + 1, length: array.length - 2, content: '' }]
      : [{ offset: item.offset, length: item.length, content: '' }];
  }
  const isLast = index === items.length - 1;
  if (aloneOnLine(text, item)) {
    const start = lineStart(text, item.offset);
    const newline = text.indexOf('\n', end);
    const stop = newline === -1 ? text.length : newline + 1;
    const line: Edit = { offset: start, length: stop - start, content: '' };
    if (!isLast) return [line];
    const previous = items[index - 1]!;
    const comma = commaAfter(text, previous.offset + previous.length);
    // The previous item's comma goes too, unless the list keeps trailing commas (this item has one).
    return comma === undefined || commaAfter(text, end) !== undefined ? [line] : [{ offset: comma, length: 1, content: '' }, line];
  }
  if (!isLast) return [{ offset: item.offset, length: items[index + 1]!.offset - item.offset, content: '' }];
  const previous = items[index - 1]!;
  const from = commaAfter(text, previous.offset + previous.length) ?? previous.offset + previous.length;
  return [{ offset: from, length: end - from, content: '' }];
}

/** The offset of the comma that follows `offset`, skipping whitespace and comments. */
function commaAfter(text: string, offset: number): number | undefined {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  for (;;) {
    const token = scanner.scan();
    if (
      token === SyntaxKind.Trivia ||
      token === SyntaxKind.LineBreakTrivia ||
      token === SyntaxKind.LineCommentTrivia ||
      token === SyntaxKind.BlockCommentTrivia
    )
      continue;
    return token === SyntaxKind.CommaToken ? scanner.getTokenOffset() : undefined;
  }
}

/** True when only whitespace precedes the node on its line and only a comma and a comment follow it. */
function aloneOnLine(text: string, node: Node): boolean {
  const end = node.offset + node.length;
  const before = text.slice(lineStart(text, node.offset), node.offset);
  const after = text.slice(end, endOfLine(text, end));
  return before.trim() === '' && /^\s*,?\s*(\/\/.*|\/\*.*\*\/\s*)?$/.test(after);
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset of the line break ending the line (before a \r), or the text's end. */
function endOfLine(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  if (newline === -1) return text.length;
  return text[newline - 1] === '\r' ? newline - 1 : newline;
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

/** Adds a server's entry (or replaces the one of that name), creating `mcpServers` when the file has none. */
export function putServerEntry(text: string, server: string, entry: Readonly<Record<string, unknown>>): string {
  const base = text.trim() === '' ? EMPTY_MCP_CONFIG_TEXT : text;
  assertParses(base);
  const eol = base.includes('\r\n') ? '\r\n' : '\n';
  return applyEdits(base, modify(base, ['mcpServers', server], entry, { formattingOptions: { insertSpaces: true, tabSize: 2, eol } }));
}

/** Removes a server's entry, keeping the rest of the file; undefined when the file has no such server. */
export function removeServerEntry(text: string, server: string): string | undefined {
  assertParses(text);
  const tree = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!tree || !findNodeAtLocation(tree, ['mcpServers', server])) return undefined;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return applyEdits(text, modify(text, ['mcpServers', server], undefined, { formattingOptions: { insertSpaces: true, tabSize: 2, eol } }));
}

/** Checks that the text parses (a clear error otherwise) before it is edited. */
function assertParses(text: string): void {
  const errors: ParseError[] = [];
  parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const { line, column } = position(text, errors[0]!.offset);
    throw new Error(`The MCP config file is not valid JSON (${printParseErrorCode(errors[0]!.error)} at line ${line}, column ${column}); fix it first.`);
  }
}
