// Raw parameters (`content`, `diff`) must come out byte for byte whatever they contain and however
// the message is chunked: files with their own <content> or <diff> elements, examples of tool
// calls, closing tags followed by whitespace.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseAssistantMessage, StreamingToolParser } from '../../../src/core/parse/streaming-tool-parser.js';
import type { AssistantBlock } from '../../../src/core/parse/types.js';
import { assertGrowsTowards, chunksAt, stream } from './chunking-helpers.js';
import { TEST_GRAMMAR } from './corpus.js';

interface RawTool {
  readonly tool: string;
  readonly param: string;
}

const WRITE: RawTool = { tool: 'write_to_file', param: 'content' };
const REPLACE: RawTool = { tool: 'replace_in_file', param: 'diff' };

/** Whitespace models put between a raw value's closing tag and what follows it. */
const GAPS = ['\n', '', '  \r\n\t', '\n\n'];

/** A message with one tool call carrying `payload`, its path before or after it, and text around. */
function message(raw: RawTool, payload: string, pathAfter: boolean, trailer: string, gap = '\n'): string {
  const path = '<path>out/file.txt</path>';
  const body = `<${raw.param}>\n${payload}\n</${raw.param}>`;
  return `Writing it now.\n<${raw.tool}>\n${pathAfter ? body : path}${gap}${pathAfter ? path : body}${gap}</${raw.tool}>${trailer}`;
}

function expected(raw: RawTool, payload: string, trailer: string): AssistantBlock[] {
  const blocks: AssistantBlock[] = [
    { kind: 'text', text: 'Writing it now.', partial: false },
    { kind: 'tool', name: raw.tool, params: { path: 'out/file.txt', [raw.param]: payload }, partial: false },
  ];
  return [...blocks, ...parseAssistantMessage(trailer, TEST_GRAMMAR)];
}

function checkAllChunkings(raw: RawTool, payload: string, pathAfter: boolean, trailer: string, cuts: readonly number[], gap = '\n'): void {
  const text = message(raw, payload, pathAfter, trailer, gap);
  const want = expected(raw, payload, trailer);
  assert.deepEqual(parseAssistantMessage(text, TEST_GRAMMAR), want);
  const { snapshots, final } = stream(TEST_GRAMMAR, chunksAt(text, cuts));
  assert.deepEqual(final, want);
  for (const snapshot of snapshots) assertGrowsTowards(snapshot, final);
}

const XML_FILE = [
  '<?xml version="1.0"?>',
  '<items>',
  '  <item><content>first</content></item>',
  '  <item>',
  '    <content>second</content>',
  '    <path>a/b</path>',
  '  </item>',
  '  <content>third</content>',
  '</items>',
].join('\n');

const JSX_FILE = ['export function Card({ title }: Props) {', '  return (', '    <content>', '      <h1>{title}</h1>', '    </content>', '  );', '}'].join(
  '\n',
);

const TOOL_DOC = [
  '# Writing files',
  '',
  'The model writes a file like this:',
  '',
  '<write_to_file>',
  '<path>notes.txt</path>',
  '<content>',
  'hello',
  '</content>',
  '</write_to_file>',
  '',
  'and that is all.',
].join('\n');

const NESTED_DIFF = [
  '------- SEARCH',
  '<replace_in_file>',
  '<path>a.md</path>',
  '<diff>',
  'old',
  '</diff>',
  '</replace_in_file>',
  '=======',
  '<diff>new</diff>',
  '+++++++ REPLACE',
].join('\n');

describe('raw parameters keep their own tags', () => {
  const cases: Array<[string, RawTool, string]> = [
    ['an XML file with several <content> elements and a <path> element', WRITE, XML_FILE],
    ['a JSX file with a <content> element', WRITE, JSX_FILE],
    ['a document showing a whole write_to_file call', WRITE, TOOL_DOC],
    ['a file whose last line is an inner </content>', WRITE, 'a\n<content>b\n</content>'],
    ['an inner closing tag followed by whitespace and the path', WRITE, '<x><content>1</content>  \n<path>p</path></x>'],
    ['an inner closing tag followed by whitespace only', WRITE, 'x</content>   \n\t'],
    ['an opening tag only', WRITE, 'const open = "<content>";\nconst n = 1;'],
    ['a snippet that closes the parameter and the tool', WRITE, 'Calls end like this:\n</content>\n</write_to_file>\nThat is all.'],
    ['a closing tag, whitespace and the tool end as its last line', WRITE, 'end of a call:\n</content>  \n</write_to_file>'],
    ['a diff with <diff> elements and a whole replace_in_file example', REPLACE, NESTED_DIFF],
  ];
  for (const [name, raw, payload] of cases) {
    for (const pathAfter of [false, true]) {
      test(`${name}${pathAfter ? ', path after it' : ''}: exact in one piece and in every 1-char chunking`, () => {
        const trailer = '\nDone.';
        for (const gap of GAPS) {
          const text = message(raw, payload, pathAfter, trailer, gap);
          checkAllChunkings(raw, payload, pathAfter, trailer, [], gap);
          checkAllChunkings(
            raw,
            payload,
            pathAfter,
            trailer,
            [...text].map((_, i) => i),
            gap,
          );
        }
      });
    }
  }

  test('a second call after the first one does not take its place', () => {
    const second = `\n<write_to_file>\n<path>b.txt</path>\n<content>\n${TOOL_DOC}\n</content>\n</write_to_file>`;
    const blocks = parseAssistantMessage(message(WRITE, XML_FILE, false, second), TEST_GRAMMAR);
    assert.deepEqual(blocks, expected(WRITE, XML_FILE, second));
    assert.equal(blocks.length, 3);
  });

  test('in a message of several long calls, a call is decided once another starts over 4,096 characters after it', () => {
    const body = (n: number) => Array.from({ length: 300 }, (_, i) => `line ${n}.${i} <content>x</content>`).join('\n');
    const call = (n: number) => `<write_to_file>\n<path>f${n}.txt</path>\n<content>\n${body(n)}\n</content>\n</write_to_file>\n`;
    const parser = new StreamingToolParser(TEST_GRAMMAR);
    parser.push(`${call(1)}Next.\n${call(2)}`);
    // The second call starts right after the first one's end: it might still be part of the file.
    assert.equal(parser.blocks.length, 1);
    assert.equal(parser.blocks[0]!.partial, true);
    parser.push('Last.\n<write_to_file>');
    assert.deepEqual(parser.blocks.slice(0, 3), [
      { kind: 'tool', name: 'write_to_file', params: { path: 'f1.txt', content: body(1) }, partial: false },
      { kind: 'text', text: 'Next.', partial: false },
      // Shown up to its first possible end, decided later.
      { kind: 'tool', name: 'write_to_file', params: { path: 'f2.txt', content: body(2) }, partial: true },
    ]);
    parser.push(call(3).slice('<write_to_file>'.length));
    const final = parser.finish();
    assert.deepEqual(
      final.filter((block) => block.kind === 'tool').map((block) => block.kind === 'tool' && block.params.content),
      [body(1), body(2), body(3)],
    );
  });

  test('while streaming, the shown value stops at the first possible end; the message end decides', () => {
    const parser = new StreamingToolParser(TEST_GRAMMAR);
    parser.push('<write_to_file><path>a</path><content>\n<content>x</content>\n</write_to_file>\nmore');
    assert.deepEqual(parser.blocks, [{ kind: 'tool', name: 'write_to_file', params: { path: 'a', content: '<content>x' }, partial: true }]);
    parser.push('\n</content>\n</write_to_file>');
    assert.deepEqual(parser.finish(), [
      {
        kind: 'tool',
        name: 'write_to_file',
        params: { path: 'a', content: '<content>x</content>\n</write_to_file>\nmore' },
        partial: false,
      },
    ]);
  });
});

describe('raw parameters: random payloads and chunkings', () => {
  const piece = (raw: RawTool) =>
    fc.constantFrom(
      `<${raw.param}>`,
      `</${raw.param}>`,
      `<${raw.param}>inner</${raw.param}>`,
      '<path>x</path>',
      `</${raw.param}>\n<path>y</path>`,
      `</${raw.param}>\n<${raw.param}>`,
      `<${raw.param}>\n</${raw.param}>\n</${raw.tool}>`,
      TOOL_DOC,
      NESTED_DIFF,
      '<',
      '</',
      '>',
      `</${raw.param}>\n</${raw.tool}>`,
      `</${raw.param}>  \r\n\t</${raw.tool}>\nafter`,
      '\n',
      ' ',
      '\t',
      '\r\n',
      'text',
      '<div class="a">',
      '</div>',
      `</${raw.tool}`,
      'é😀',
    );
  const trailer = fc.constantFrom('', '\nDone.', '\n<read_file>\n<path>b.ts</path>\n</read_file>', ' <thinking>x</thinking>');

  for (const raw of [WRITE, REPLACE]) {
    test(`${raw.tool}: any payload built from tag-like pieces comes out exact`, () => {
      fc.assert(
        fc.property(
          fc.array(piece(raw), { maxLength: 12 }),
          fc.boolean(),
          trailer,
          fc.array(fc.nat(), { maxLength: 40 }),
          fc.constantFrom(...GAPS),
          (pieces, pathAfter, tail, cuts, gap) => {
            checkAllChunkings(raw, pieces.join(''), pathAfter, tail, cuts, gap);
          },
        ),
        { numRuns: 1500 },
      );
    });
  }
});
