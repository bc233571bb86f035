// Synthetic assistant messages of a chosen size, shaped like real model output: one long
// write_to_file, many tool blocks in a row, or text only. Deterministic, so every run parses the
// same bytes.

/** The three shapes the parser benchmark streams. */
export type OutputKind = 'write' | 'many-tools' | 'text';

export const OUTPUT_KINDS: readonly OutputKind[] = ['write', 'many-tools', 'text'];

const fence = '```';

/** Lines of a TypeScript/React file: generics, JSX and comparisons put plenty of "<" in the stream. */
function codeLine(i: number): string {
  switch (i % 12) {
    case 0:
      return `export function handler${i}(items: Array<Item<${i}>>, limit = ${i % 97}): Map<string, number> {`;
    case 1:
      return `  const seen = new Map<string, number>();`;
    case 2:
      return `  for (let k = 0; k < items.length && k <= limit; k++) {`;
    case 3:
      return `    if (items[k]!.score < ${i % 50} || items[k]!.name === '<none>') continue;`;
    case 4:
      return `    seen.set(items[k]!.name, (seen.get(items[k]!.name) ?? 0) + 1);`;
    case 5:
      return '  }';
    case 6:
      return `  return seen; // ${i} entries at most`;
    case 7:
      return '}';
    case 8:
      return '';
    case 9:
      return `const View${i} = ({ rows }: Props) => <ul className="rows">{rows.map((r) => <li key={r.id}>{r.label}</li>)}</ul>;`;
    case 10:
      return `/** Returns true when a < b for entry ${i}; see <https://example.com/docs/${i}>. */`;
    default:
      return `export const LIMIT_${i} = ${i} << 2;`;
  }
}

function codeBody(targetChars: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < targetChars; i++) {
    const line = codeLine(i);
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** One of a rotating set of tool calls with prose around them, as an agent writes them turn after turn. */
function toolStep(i: number): string {
  switch (i % 6) {
    case 0:
      return `<thinking>\nStep ${i}: the handler in src/feature-${i}.ts probably parses the options; read it before changing anything.\n</thinking>\n\n<read_file>\n<path>src/feature-${i}.ts</path>\n<start_line>${i}</start_line>\n<end_line>${i + 80}</end_line>\n</read_file>\n\n`;
    case 1:
      return `Now I'll tighten the check in \`handler${i}\`:\n\n<replace_in_file>\n<path>src/feature-${i}.ts</path>\n<diff>\n------- SEARCH\n    if (items[k]!.score < ${i % 50}) continue;\n=======\n    if (items[k]!.score <= ${i % 50} || items[k]!.hidden) continue;\n+++++++ REPLACE\n</diff>\n</replace_in_file>\n\n`;
    case 2:
      return `Let me run the tests for this module.\n\n<execute_command>\n<command>npx vitest run src/feature-${i}.test.ts --reporter=dot</command>\n<requires_approval>false</requires_approval>\n</execute_command>\n\n`;
    case 3:
      return `<search_files>\n<path>src</path>\n<regex>handler${i}\\(|Array<Item<</regex>\n<file_pattern>*.ts</file_pattern>\n</search_files>\n\n`;
    case 4:
      return `The folder layout matters here; listing it.\n\n<list_files>\n<path>src/components/feature-${i}</path>\n<recursive>true</recursive>\n</list_files>\n\n`;
    default:
      return `<write_to_file>\n<path>src/feature-${i}/index.ts</path>\n<content>\n${codeBody(240 + (i % 7) * 40)}\n</content>\n</write_to_file>\n\n`;
  }
}

/** A paragraph of a long text-only answer: Markdown, code fences, HTML-looking tags that are not tools. */
function textParagraph(i: number): string {
  switch (i % 5) {
    case 0:
      return `## Part ${i}\n\nThe parser sees \`<div>\` and \`a < b\` here; neither is a tool, so both stay text. Use \`read_file\` to look at src/part-${i}.ts first.\n\n`;
    case 1:
      return `- item ${i}: values where x < ${i} are dropped\n- item ${i + 1}: see <https://example.com/${i}>\n- item ${i + 2}: the <b>bold</b> markup is kept\n\n`;
    case 2:
      return `${fence}tsx\nexport const Row${i} = () => <tr><td>{${i}}</td><td>{"<" + "/td>"}</td></tr>;\n${fence}\n\n`;
    case 3:
      return `In short, step ${i} keeps the behaviour: compare with \`<=\` rather than \`<\`, and keep the <path> and <content> words in prose as plain text.\n\n`;
    default:
      return `Paragraph ${i} explains the trade-off at some length, because models like to: the incremental parser must not slow down as this answer grows, whatever the chunk size the provider streams.\n\n`;
  }
}

/** An assistant message of `kind`, about `size` characters long (never shorter). */
export function modelOutput(kind: OutputKind, size: number): string {
  switch (kind) {
    case 'write': {
      const head = `<thinking>\nThe user wants the whole module rewritten; writing it in one go is simpler than many SEARCH/REPLACE blocks.\n</thinking>\n\nI'll write the new module.\n\n<write_to_file>\n<path>src/generated/module.tsx</path>\n<content>\n`;
      const tail = '\n</content>\n</write_to_file>';
      return head + codeBody(Math.max(0, size - head.length - tail.length)) + tail;
    }
    case 'many-tools': {
      let out = '';
      for (let i = 0; out.length < size; i++) out += toolStep(i);
      return out;
    }
    case 'text': {
      let out = '';
      for (let i = 0; out.length < size; i++) out += textParagraph(i);
      return out;
    }
  }
}

/** A message of many small read_file calls with a line of prose before each (an agent exploring), about `size` characters. */
export function manyReadFiles(size: number): string {
  let out = '';
  for (let i = 0; out.length < size; i++) {
    out += `Next, part ${i} of the handler.\n\n<read_file>\n<path>src/feature-${i % 97}/part-${i}.ts</path>\n</read_file>\n\n`;
  }
  return out;
}

/** A file body of about `size` characters of TypeScript/React code. */
export function codeOfSize(size: number): string {
  return codeBody(size);
}

/** Splits a message into chunks of `size` characters, as a provider stream might deliver them. */
export function chunksOf(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
  return chunks;
}
