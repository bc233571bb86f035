import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAssistantMessage, StreamingToolParser } from '../../../src/core/parse/streaming-tool-parser.js';
import type { AssistantBlock, ToolUseBlock } from '../../../src/core/parse/types.js';
import { CORPUS, TEST_GRAMMAR } from './corpus.js';

function parse(text: string): readonly AssistantBlock[] {
  return parseAssistantMessage(text, TEST_GRAMMAR);
}

function corpusText(name: string): string {
  const item = CORPUS.find((c) => c.name === name);
  if (item === undefined) throw new Error(`no corpus item ${name}`);
  return item.text;
}

function lastTool(blocks: readonly AssistantBlock[]): ToolUseBlock {
  const last = blocks[blocks.length - 1];
  assert.ok(last !== undefined && last.kind === 'tool', 'expected a tool block last');
  return last;
}

describe('parseAssistantMessage: block structure', () => {
  test('text only is one trimmed text block', () => {
    assert.deepEqual(parse('\n  Hello there.  \n'), [{ kind: 'text', text: 'Hello there.', partial: false }]);
  });

  test('empty and whitespace-only messages give no blocks', () => {
    assert.deepEqual(parse(''), []);
    assert.deepEqual(parse(' \n\t '), []);
  });

  test('thinking + read_file', () => {
    assert.deepEqual(parse(corpusText('thinking + read_file')), [
      {
        kind: 'thinking',
        text: 'The user wants the retry logic fixed. I need to see src/net/retry.ts first; the backoff\nprobably lives near the top, so lines 1-80 should be enough.',
        partial: false,
      },
      {
        kind: 'tool',
        name: 'read_file',
        params: { path: 'src/net/retry.ts', start_line: '1', end_line: '80' },
        partial: false,
      },
    ]);
  });

  test('<think> is thinking too, and a tool tag inside thinking stays thinking text', () => {
    assert.deepEqual(parse('<think>maybe <read_file> later</think>Answer.'), [
      { kind: 'thinking', text: 'maybe <read_file> later', partial: false },
      { kind: 'text', text: 'Answer.', partial: false },
    ]);
  });

  test('text around and between two tool calls', () => {
    const blocks = parse(corpusText('two tool calls in one message'));
    assert.deepEqual(blocks, [
      { kind: 'text', text: "First I'll list the folder, then read the entry point.", partial: false },
      { kind: 'tool', name: 'list_files', params: { path: 'src', recursive: 'true' }, partial: false },
      { kind: 'tool', name: 'read_file', params: { path: 'src/index.ts' }, partial: false },
      { kind: 'text', text: 'Done.', partial: false },
    ]);
  });

  test('whitespace between blocks makes no text block', () => {
    const blocks = parse('<read_file><path>a</path></read_file>\n\n  \n<read_file><path>b</path></read_file>');
    assert.deepEqual(
      blocks.map((b) => b.kind),
      ['tool', 'tool'],
    );
  });

  test('a tool call right after text without a newline', () => {
    assert.deepEqual(parse('Reading it now:<read_file><path>a.ts</path></read_file>'), [
      { kind: 'text', text: 'Reading it now:', partial: false },
      { kind: 'tool', name: 'read_file', params: { path: 'a.ts' }, partial: false },
    ]);
  });
});

describe('parseAssistantMessage: literal tags and operators', () => {
  test('unknown tags stay in the text', () => {
    const text = corpusText('unknown tags <div> and <foo> in text');
    assert.deepEqual(parse(text), [{ kind: 'text', text, partial: false }]);
  });

  test('comparison and shift operators stay in text and in param values', () => {
    const blocks = parse(corpusText('code with a < b and << operators'));
    assert.equal(blocks.length, 2);
    const text = blocks[0];
    assert.ok(text?.kind === 'text');
    assert.match(text.text, /if \(a < b && mask << 2 > limit\) \{ return x<y \? 1 : 0; \}/);
    assert.match(text.text, /<<= also works\n```$/);
    assert.deepEqual(blocks[1], {
      kind: 'tool',
      name: 'execute_command',
      params: { command: 'node -e "console.log(1 << 3, 2 < 3)"', requires_approval: 'false' },
      partial: false,
    });
  });

  test('Markdown with backticks and an unknown tool in a fence stays text', () => {
    const text = corpusText('Markdown with backticks and a fenced tool example');
    assert.deepEqual(parse(text), [{ kind: 'text', text, partial: false }]);
  });

  test('a closing tag without an opener, and "<" at the very end, are text', () => {
    assert.deepEqual(parse('done </read_file> and </thinking> a <'), [{ kind: 'text', text: 'done </read_file> and </thinking> a <', partial: false }]);
    assert.deepEqual(parse('see <rea'), [{ kind: 'text', text: 'see <rea', partial: false }]);
  });

  test('a tag of another tool or an unknown tag inside a param value is part of the value', () => {
    const blocks = parse('<attempt_completion><result>Use <read_file> and <b>bold</b></result></attempt_completion>');
    assert.deepEqual(lastTool(blocks).params, { result: 'Use <read_file> and <b>bold</b>' });
  });

  test('a param tag of another tool is skipped between params', () => {
    const blocks = parse('<read_file><path>a.ts</path><content>x</content></read_file>');
    assert.deepEqual(blocks, [{ kind: 'tool', name: 'read_file', params: { path: 'a.ts' }, partial: false }]);
  });
});

describe('parseAssistantMessage: parameter values', () => {
  test('ordinary params are trimmed', () => {
    const blocks = parse(corpusText('attempt_completion with result and command'));
    assert.deepEqual(lastTool(blocks).params, {
      result: 'I fixed the retry loop: the delay now doubles per attempt and is capped at 30 s.\nAll 42 tests pass.',
      command: 'npm test -- --grep retry',
    });
  });

  test('options keep their JSON text', () => {
    const params = lastTool(parse(corpusText('ask_followup_question with options'))).params;
    assert.equal(params.question, 'Which package manager should I use to add the dependency?');
    assert.deepEqual(JSON.parse(params.options ?? ''), ['npm', 'pnpm', 'yarn <classic>']);
  });

  test('raw params lose exactly one leading and one trailing newline, nothing else', () => {
    const msg = '<write_to_file><path>a.py</path><content>\n\n  def f():\n\treturn 1  \n\n</content></write_to_file>';
    assert.equal(lastTool(parse(msg)).params.content, '\n  def f():\n\treturn 1  \n');
    const inline = '<write_to_file><path>a</path><content>  x  </content></write_to_file>';
    assert.equal(lastTool(parse(inline)).params.content, '  x  ');
    const empty = '<write_to_file><path>a</path><content>\n</content></write_to_file>';
    assert.equal(lastTool(parse(empty)).params.content, '');
  });

  test('raw params treat CRLF as one newline', () => {
    const blocks = parse(corpusText('<think> tags, Windows newlines, raw diff with CRLF'));
    assert.deepEqual(blocks, [
      { kind: 'thinking', text: 'CRLF file, keep the line endings.', partial: false },
      {
        kind: 'tool',
        name: 'replace_in_file',
        params: { path: 'win.txt', diff: '------- SEARCH\r\nold\r\n=======\r\nnew\r\n+++++++ REPLACE' },
        partial: false,
      },
    ]);
  });

  test('multi-block SEARCH/REPLACE diff is kept byte for byte', () => {
    const blocks = parse(corpusText('text + replace_in_file with two SEARCH/REPLACE blocks'));
    assert.equal(blocks.length, 2);
    const tool = lastTool(blocks);
    assert.equal(tool.params.path, 'src/net/retry.ts');
    assert.equal(
      tool.params.diff,
      [
        '------- SEARCH',
        'const DELAY_MS = 500;',
        '=======',
        'const BASE_DELAY_MS = 500;',
        'const MAX_DELAY_MS = 30_000;',
        '+++++++ REPLACE',
        '',
        '------- SEARCH',
        '    await sleep(DELAY_MS);',
        '=======',
        '    // Exponential backoff: 500ms, 1s, 2s, ... capped.',
        '    await sleep(Math.min(BASE_DELAY_MS * 2 ** attempt, MAX_DELAY_MS));',
        '+++++++ REPLACE',
      ].join('\n'),
    );
  });

  test('content may contain </content> and HTML: it ends at the last </content> before </write_to_file>', () => {
    const tool = lastTool(parse(corpusText('write_to_file whose content contains </content> and HTML')));
    assert.equal(tool.partial, false);
    assert.equal(tool.params.path, 'docs/template.html');
    assert.equal(
      tool.params.content,
      [
        '<!DOCTYPE html>',
        '<html>',
        '  <head><title>Tags & <content></title></head>',
        '  <body>',
        '    <p>Write the file body between <code>&lt;content&gt;</code> tags:</p>',
        '    <pre><content>hello</content></pre>',
        '    </content>',
        '    <div class="x" data-a="1 < 2">end</div>',
        '  </body>',
        '</html>',
        '',
      ].join('\n'),
    );
  });

  test('content containing XML that mentions </write_to_file> without a closing </content> before it', () => {
    const msg = '<write_to_file><path>x.xml</path><content>\n<a></write_to_file></a>\n</content>\n</write_to_file>';
    assert.equal(lastTool(parse(msg)).params.content, '<a></write_to_file></a>');
  });

  test('a raw param may be followed by another param instead of the tool end', () => {
    const blocks = parse(corpusText('thinking that mentions a tool tag, then write_to_file with path after content'));
    assert.deepEqual(blocks, [
      { kind: 'thinking', text: "I'll use <write_to_file> here, not <replace_in_file>.", partial: false },
      { kind: 'tool', name: 'write_to_file', params: { content: 'line 1', path: 'notes.txt' }, partial: false },
    ]);
  });

  test('a forgotten </param> is closed by the tool end; a repeated param keeps the last value', () => {
    assert.deepEqual(parse(corpusText('forgotten </path> and a stray unknown param')), [
      { kind: 'tool', name: 'read_file', params: { path: 'src/a.ts\n<mode>fast</mode>' }, partial: false },
      { kind: 'tool', name: 'execute_command', params: { command: 'echo "</command" && ls', timeout: '30' }, partial: false },
    ]);
    assert.deepEqual(lastTool(parse('<read_file><path>a</path><path>b</path></read_file>')).params, { path: 'b' });
  });
});

describe('parseAssistantMessage: unterminated blocks', () => {
  test('a message cut off mid tool gives a partial tool with what arrived', () => {
    const blocks = parse(corpusText('message cut off in the middle of a tool'));
    assert.deepEqual(blocks, [
      { kind: 'text', text: 'Let me write the config.', partial: false },
      {
        kind: 'tool',
        name: 'write_to_file',
        params: { path: 'config/app.json', content: '{\n  "name": "smith",\n  "retries": 3,\n  "tags": ["<a>", "</con' },
        partial: true,
      },
    ]);
  });

  test('a raw param whose closing tag came but not the tool end: param done, tool partial', () => {
    const blocks = parse('<write_to_file><path>a</path><content>\nx\n</content>\n</write_to');
    assert.deepEqual(blocks, [{ kind: 'tool', name: 'write_to_file', params: { path: 'a', content: 'x' }, partial: true }]);
  });

  test('an opened tool with no params, and unterminated thinking', () => {
    assert.deepEqual(parse('<list_files>'), [{ kind: 'tool', name: 'list_files', params: {}, partial: true }]);
    assert.deepEqual(parse('<thinking>hmm, maybe'), [{ kind: 'thinking', text: 'hmm, maybe', partial: false }]);
  });
});

describe('StreamingToolParser: streaming', () => {
  test('partial tool params grow without a trailing fragment of a closing tag', () => {
    const parser = new StreamingToolParser(TEST_GRAMMAR);
    parser.push('I will read it.\n<read_file>\n<path>src/a.t');
    assert.deepEqual(parser.blocks, [
      { kind: 'text', text: 'I will read it.', partial: false },
      { kind: 'tool', name: 'read_file', params: { path: 'src/a.t' }, partial: true },
    ]);
    parser.push('s</pa');
    assert.deepEqual(lastTool(parser.blocks).params, { path: 'src/a.ts' });
    parser.push('th>\n</read_');
    assert.deepEqual(lastTool(parser.blocks), { kind: 'tool', name: 'read_file', params: { path: 'src/a.ts' }, partial: true });
    parser.push('file>');
    assert.deepEqual(lastTool(parser.blocks), { kind: 'tool', name: 'read_file', params: { path: 'src/a.ts' }, partial: false });
  });

  test('a raw value hides a possible </content> and the trailing newline until decided', () => {
    const parser = new StreamingToolParser(TEST_GRAMMAR);
    parser.push('<write_to_file><path>a</path><content>\nline\n</con');
    assert.equal(lastTool(parser.blocks).params.content, 'line');
    parser.push('tent>\n  ');
    assert.equal(lastTool(parser.blocks).params.content, 'line');
    parser.push('more\n');
    assert.equal(lastTool(parser.blocks).params.content, 'line\n</content>\n  more');
    parser.push('</content>\n</write_to_file>');
    assert.deepEqual(parser.finish(), [{ kind: 'tool', name: 'write_to_file', params: { path: 'a', content: 'line\n</content>\n  more' }, partial: false }]);
  });

  test('text hides a trailing "<rea" that may become a tool tag', () => {
    const parser = new StreamingToolParser(TEST_GRAMMAR);
    parser.push('Let me look <rea');
    assert.deepEqual(parser.blocks, [{ kind: 'text', text: 'Let me look', partial: true }]);
    parser.push('lly> now');
    assert.deepEqual(parser.blocks, [{ kind: 'text', text: 'Let me look <really> now', partial: true }]);
  });

  test('thinking streams as a partial thinking block and ends partial: false', () => {
    const parser = new StreamingToolParser(TEST_GRAMMAR);
    parser.push('<thinking>step one');
    assert.deepEqual(parser.blocks, [{ kind: 'thinking', text: 'step one', partial: true }]);
    parser.push('</thinking>');
    assert.deepEqual(parser.blocks, [{ kind: 'thinking', text: 'step one', partial: false }]);
  });

  test('blocks is cached between pushes and finish is idempotent', () => {
    const parser = new StreamingToolParser(TEST_GRAMMAR);
    parser.push('Hello <read_file><path>a');
    const first = parser.blocks;
    assert.equal(parser.blocks, first);
    parser.push('');
    assert.equal(parser.blocks, first);
    parser.push('b');
    assert.notEqual(parser.blocks, first);
    assert.deepEqual(first[1], { kind: 'tool', name: 'read_file', params: { path: 'a' }, partial: true });
    const done = parser.finish();
    assert.equal(parser.finish(), done);
    assert.equal(parser.blocks, done);
    assert.throws(() => parser.push('x'), /after finish/);
  });

  test('finish equals parseAssistantMessage for a mid-tag split', () => {
    const msg = 'a<attempt_completion><result>ok</result></attempt_completion>';
    for (let cut = 0; cut <= msg.length; cut++) {
      const parser = new StreamingToolParser(TEST_GRAMMAR);
      parser.push(msg.slice(0, cut));
      parser.push(msg.slice(cut));
      assert.deepEqual(parser.finish(), parse(msg), `cut at ${cut}`);
    }
  });

  test('a long streamed file arrives intact', () => {
    const body = 'const x = a < b ? "</div>" : `<content>`;\n'.repeat(3000);
    const msg = `<write_to_file>\n<path>big.ts</path>\n<content>\n${body}</content>\n</write_to_file>`;
    const parser = new StreamingToolParser(TEST_GRAMMAR);
    for (let i = 0; i < msg.length; i += 16) {
      parser.push(msg.slice(i, i + 16));
      assert.equal(parser.blocks.length, 1);
    }
    assert.deepEqual(parser.finish(), [{ kind: 'tool', name: 'write_to_file', params: { path: 'big.ts', content: body.slice(0, -1) }, partial: false }]);
  });
});

describe('StreamingToolParser: grammar', () => {
  test('rejects tool and param names that cannot be tags', () => {
    assert.throws(() => new StreamingToolParser({ tools: new Map([['bad tool', []]]) }), /cannot be used as an XML tag/);
    assert.throws(() => new StreamingToolParser({ tools: new Map([['t', ['__proto__']]]) }), /cannot be used/);
    assert.throws(() => new StreamingToolParser({ tools: new Map([['thinking', []]]) }), /reserved/);
  });

  test('only the grammar decides what a tool is', () => {
    const grammar = { tools: new Map([['use_mcp_tool', ['server_name', 'arguments']]]) };
    assert.deepEqual(parseAssistantMessage('<read_file><path>a</path></read_file>', grammar), [
      { kind: 'text', text: '<read_file><path>a</path></read_file>', partial: false },
    ]);
    assert.deepEqual(parseAssistantMessage('<use_mcp_tool><server_name>gh</server_name></use_mcp_tool>', grammar), [
      { kind: 'tool', name: 'use_mcp_tool', params: { server_name: 'gh' }, partial: false },
    ]);
  });
});

describe('StreamingToolParser: reading while streaming', () => {
  test('completed only grows and current is the growing block', () => {
    const parser = new StreamingToolParser(TEST_GRAMMAR);
    const completed = parser.completed;
    assert.equal(parser.current, undefined);
    parser.push('Let me read it.\n<read_file><path>a.t');
    assert.deepEqual(completed, [{ kind: 'text', text: 'Let me read it.', partial: false }]);
    assert.deepEqual(parser.current, { kind: 'tool', name: 'read_file', params: { path: 'a.t' }, partial: true });
    const first = completed[0];
    parser.push('s</path></read_file>\nDone');
    assert.equal(parser.completed, completed, 'the same array, so a read costs nothing per block');
    assert.equal(completed[0], first, 'a completed block is never replaced');
    assert.deepEqual(completed[1], { kind: 'tool', name: 'read_file', params: { path: 'a.ts' }, partial: false });
    assert.deepEqual(parser.current, { kind: 'text', text: 'Done', partial: true });
    const final = parser.finish();
    assert.deepEqual(completed, final);
    assert.equal(parser.current, undefined);
  });

  test('a raw parameter shows its value so far in current, still partial', () => {
    const parser = new StreamingToolParser(TEST_GRAMMAR);
    parser.push('<write_to_file><path>x.txt</path><content>\nline 1\nli');
    assert.deepEqual(parser.completed, []);
    assert.deepEqual(parser.current, { kind: 'tool', name: 'write_to_file', params: { path: 'x.txt', content: 'line 1\nli' }, partial: true });
    parser.push('ne 2\n</content></write_to_file>');
    // A raw value's end is only decided when the message ends (or a later call settles it).
    assert.deepEqual(parser.completed, []);
    assert.equal(parser.current?.partial, true);
    assert.deepEqual(parser.finish(), [{ kind: 'tool', name: 'write_to_file', params: { path: 'x.txt', content: 'line 1\nline 2' }, partial: false }]);
  });
});
