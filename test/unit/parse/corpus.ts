import type { ToolGrammar } from '../../../src/core/parse/types.js';

/** The tools and parameters the parser tests recognise (a subset of Smith's real tools). */
export const TEST_GRAMMAR: ToolGrammar = {
  tools: new Map<string, readonly string[]>([
    ['read_file', ['path', 'start_line', 'end_line']],
    ['write_to_file', ['path', 'content']],
    ['replace_in_file', ['path', 'diff']],
    ['execute_command', ['command', 'requires_approval', 'timeout']],
    ['ask_followup_question', ['question', 'options']],
    ['attempt_completion', ['result', 'command']],
    ['list_files', ['path', 'recursive']],
  ]),
};

/** One real-looking assistant message. */
export interface CorpusItem {
  readonly name: string;
  readonly text: string;
}

const fence = '```';

/** Assistant messages shaped like real model output, including the awkward cases. */
export const CORPUS: readonly CorpusItem[] = [
  {
    name: 'thinking + read_file',
    text: `<thinking>
The user wants the retry logic fixed. I need to see src/net/retry.ts first; the backoff
probably lives near the top, so lines 1-80 should be enough.
</thinking>

<read_file>
<path>src/net/retry.ts</path>
<start_line>1</start_line>
<end_line>80</end_line>
</read_file>`,
  },
  {
    name: 'text + replace_in_file with two SEARCH/REPLACE blocks',
    text: `I'll make the backoff exponential and cap it at 30 seconds.

<replace_in_file>
<path>src/net/retry.ts</path>
<diff>
------- SEARCH
const DELAY_MS = 500;
=======
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;
+++++++ REPLACE

------- SEARCH
    await sleep(DELAY_MS);
=======
    // Exponential backoff: 500ms, 1s, 2s, ... capped.
    await sleep(Math.min(BASE_DELAY_MS * 2 ** attempt, MAX_DELAY_MS));
+++++++ REPLACE
</diff>
</replace_in_file>`,
  },
  {
    name: 'write_to_file whose content contains </content> and HTML',
    text: `Creating the template; note it documents the parser's own tags.

<write_to_file>
<path>docs/template.html</path>
<content>
<!DOCTYPE html>
<html>
  <head><title>Tags & <content></title></head>
  <body>
    <p>Write the file body between <code>&lt;content&gt;</code> tags:</p>
    <pre><content>hello</content></pre>
    </content>
    <div class="x" data-a="1 < 2">end</div>
  </body>
</html>

</content>
</write_to_file>`,
  },
  {
    name: 'unknown tags <div> and <foo> in text',
    text: `The component renders a <div> wrapping a <foo> element; <foo/> is self-closing in JSX.
The </div> closes it and <bar baz="1"> is an attribute example. Nothing to run yet.`,
  },
  {
    name: 'code with a < b and << operators',
    text: `Here's the check I'd use:

${fence}ts
if (a < b && mask << 2 > limit) { return x<y ? 1 : 0; }
const shifted = 1 << 10; // <<= also works
${fence}

<execute_command>
<command>node -e "console.log(1 << 3, 2 < 3)"</command>
<requires_approval>false</requires_approval>
</execute_command>`,
  },
  {
    name: 'attempt_completion with result and command',
    text: `<attempt_completion>
<result>
I fixed the retry loop: the delay now doubles per attempt and is capped at 30 s.
All 42 tests pass.
</result>
<command>npm test -- --grep retry</command>
</attempt_completion>`,
  },
  {
    name: 'ask_followup_question with options',
    text: `<ask_followup_question>
<question>Which package manager should I use to add the dependency?</question>
<options>
["npm", "pnpm", "yarn <classic>"]
</options>
</ask_followup_question>`,
  },
  {
    name: 'message cut off in the middle of a tool',
    text: `Let me write the config.

<write_to_file>
<path>config/app.json</path>
<content>
{
  "name": "smith",
  "retries": 3,
  "tags": ["<a>", "</con`,
  },
  {
    name: 'text only',
    text: `The function already handles empty input: when \`items.length === 0\` it returns early,
so no change is needed. Let me know if you want a test for it.`,
  },
  {
    name: 'two tool calls in one message',
    text: `First I'll list the folder, then read the entry point.
<list_files>
<path>src</path>
<recursive>true</recursive>
</list_files>
<read_file>
<path>src/index.ts</path>
</read_file>
Done.`,
  },
  {
    name: 'Markdown with backticks and a fenced tool example',
    text: `## Summary

Use \`read_file\` with a \`<path>\` parameter, for example:

${fence}xml
<tool_example><path>a.ts</path></tool_example>
${fence}

Inline code like \`x <= y\` or \`Array<string>\` stays text.`,
  },
  {
    name: '<think> tags, Windows newlines, raw diff with CRLF',
    text: `<think>\r\nCRLF file, keep the line endings.\r\n</think>\r\n<replace_in_file>\r\n<path>win.txt</path>\r\n<diff>\r\n------- SEARCH\r\nold\r\n=======\r\nnew\r\n+++++++ REPLACE\r\n</diff>\r\n</replace_in_file>`,
  },
  {
    name: 'forgotten </path> and a stray unknown param',
    text: `<read_file>
<path>src/a.ts
<mode>fast</mode>
</read_file>
<execute_command>
<command>echo "</command" && ls</command>
<timeout>30</timeout>
</execute_command>`,
  },
  {
    name: 'thinking that mentions a tool tag, then write_to_file with path after content',
    text: `<thinking>I'll use <write_to_file> here, not <replace_in_file>.</thinking>
<write_to_file>
<content>
line 1
</content>
<path>notes.txt</path>
</write_to_file>`,
  },
];
