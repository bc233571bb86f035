// Roo Code's custom modes through the CLI: a `.roomodes` mode is chosen with --mode once the
// workspace is trusted, its groups decide the tools, its fileRegex holds on every route that edits
// (judged where the path really leads), and its `.roo/rules-{slug}/` reach the prompt in it alone.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { allText, lastUserText, systemPromptOf, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { conversationRouter, firstUserText } from '../../helpers/conversation-router.js';
import type { RecordedRequest } from '../../fixtures/scripted-llm-server.js';

const ROOMODES = `customModes:
  - slug: docs
    name: Docs Writer
    roleDefinition: You are DOCS-ROLE, a technical writer.
    whenToUse: WHEN-DOCS, for documentation under docs/.
    customInstructions: DOCS-INSTRUCTIONS
    groups:
      - read
      - - edit
        - fileRegex: ^docs/.*\\.md$
          description: Markdown under docs/
    source: project
`;

const call = (tool: string, params: Record<string, string>) => ({
  text: `<${tool}>\n${Object.entries(params)
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join('\n')}\n</${tool}>`,
});
const complete = (result: string) => call('attempt_completion', { result });
const write = (path: string) => call('write_to_file', { path, content: 'CHANGED' });
const REFUSED = /The Docs Writer mode may only edit files matching \^docs\/\.\*\\\.md\$ \(Markdown under docs\/\); .* Nothing was changed\./;

describe('smith CLI: Roo Code custom modes (.roomodes)', () => {
  const fx = useAgentFixture();
  const args = () => [...fx.cliArgs(), '--yes'];

  test('a .roomodes mode is chosen with --mode once trusted: its role, groups and whenToUse reach the model, its rules only in it', async () => {
    fx.ws.write('.roomodes', ROOMODES);
    fx.ws.write('.roo/rules-docs/01-tone.md', 'DOCS-RULE-ONE');
    fx.ws.write('.roo/rules-docs/02-links.md', 'DOCS-RULE-TWO');
    fx.server.enqueue(complete('Docs.'), complete('Code.'));
    const docs = await runCli({ args: [...args(), '--trust-workspace', '--mode', 'docs', 'Write the docs'] });
    assert.equal(docs.code, 0, docs.stderr);
    const prompt = systemPromptOf(fx.server.requestAt(0));
    assert.match(prompt, /^You are DOCS-ROLE, a technical writer\.\n\nDOCS-INSTRUCTIONS/);
    assert.ok(prompt.indexOf('DOCS-RULE-ONE') < prompt.indexOf('DOCS-RULE-TWO'), 'both rules files, in sorted order');
    assert.match(prompt, /## write_to_file/);
    assert.doesNotMatch(prompt, /## execute_command|## browser_action/, 'no command or browser group');
    assert.match(prompt, /^- docs: WHEN-DOCS, for documentation under docs\/\.$/m, 'the model lists the mode with when to use it');

    const code = await runCli({ args: [...args(), '--trust-workspace', 'Fix the code'] });
    assert.equal(code.code, 0, code.stderr);
    assert.doesNotMatch(systemPromptOf(fx.server.requestAt(1)), /DOCS-RULE|DOCS-ROLE/);
  });

  test('an untrusted workspace does not get its .roomodes modes, and says why', async () => {
    fx.ws.write('.roomodes', ROOMODES);
    const run = await runCli({ args: [...args(), '--mode', 'docs', 'Write the docs'] });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /1 mode file of this workspace \(\.roomodes\) not used: it is not trusted \(--trust-workspace trusts it for this run\)/);
    assert.match(run.stderr, /unknown mode "docs"/);
    assert.equal(fx.server.requests.length, 0);
  });

  test('a broken entry is reported and the rest of .roomodes loads', async () => {
    fx.ws.write(
      '.roomodes',
      `${ROOMODES}  - name: No slug\n    roleDefinition: x\n    groups: [read]\n  - slug: docs\n    name: Again\n    roleDefinition: x\n    groups: [read]\n`,
    );
    fx.server.enqueue(complete('Docs.'));
    const run = await runCli({ args: [...args(), '--trust-workspace', '--mode', 'docs', 'Write'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Warning: Mode file \.roomodes is invalid at customModes\[1\]\.slug: it is required/);
    assert.match(run.stderr, /Warning: Mode file \.roomodes is invalid at customModes\[2\]\.slug: "docs" is already defined by customModes\[0\]/);
    assert.match(systemPromptOf(fx.server.requestAt(0)), /DOCS-ROLE/);
  });

  test('the fileRegex holds on the real path through every edit tool: .., ./, absolute paths, links, backslashes, new_rule', async () => {
    fx.ws.write('.roomodes', ROOMODES);
    fx.ws.write('src/app.ts', 'original\n');
    fx.ws.write('docs/readme.md', 'docs\n');
    symlinkSync('../src/app.ts', join(fx.ws.root, 'docs/link.md'));
    const attempts = [
      write('docs/../src/app.ts'),
      write('src/a.md/../../b.ts'),
      write('./x.ts'),
      write(join(fx.ws.root, 'src/app.ts')),
      write('docs/link.md'),
      call('replace_in_file', { path: 'docs/link.md', diff: '------- SEARCH\noriginal\n=======\nCHANGED\n+++++++ REPLACE' }),
      call('new_rule', { path: 'docs/rule.md', content: 'CHANGED' }),
      write('docs\\..\\src\\app.ts'),
    ];
    // A read between attempts, so three refusals in a row do not stop the task as mistakes.
    const replies = attempts.flatMap((attempt, index) => [
      attempt,
      (request: RecordedRequest) => {
        assert.match(lastUserText(request), REFUSED, `attempt ${index} was not refused`);
        return call('read_file', { path: 'docs/readme.md' });
      },
    ]);
    fx.server.enqueue(...replies, write('docs/guide.md'), (request) => {
      assert.doesNotMatch(lastUserText(request), REFUSED, 'a matching path is edited');
      return complete('Done.');
    });
    const run = await runCli({ args: [...args(), '--trust-workspace', '--mode', 'docs', 'Edit'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.ws.read('src/app.ts'), 'original\n');
    assert.equal(fx.ws.read('docs/guide.md'), 'CHANGED\n');
    for (const absent of ['b.ts', 'x.ts', '.smithrules', 'docs\\..\\src\\app.ts']) assert.equal(existsSync(join(fx.ws.root, absent)), false, absent);
    assert.deepEqual(readdirSync(join(fx.ws.root, 'docs')).sort(), ['guide.md', 'link.md', 'readme.md']);
  });

  test('a sub-agent in the mode, and the task new_task hands over to, keep its fileRegex', async () => {
    fx.ws.write('.roomodes', ROOMODES);
    fx.ws.write('src/app.ts', 'original\n');
    const router = conversationRouter({
      'Start the docs': [
        call('use_subagents', { prompts: JSON.stringify([{ prompt: 'SUB-DOCS: edit the app', mode: 'docs', paths: ['**'] }]) }),
        call('new_task', { context: 'HANDED-OVER: go on with the docs' }),
      ],
      'SUB-DOCS': [write('src/app.ts'), complete('Could not.')],
      'HANDED-OVER': [write('src/app.ts'), complete('Could not either.')],
    });
    fx.server.enqueue(...router.replies());
    const run = await runCli({ args: [...args(), '--trust-workspace', '--mode', 'docs', 'Start the docs'] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.ws.read('src/app.ts'), 'original\n');
    for (const key of ['SUB-DOCS', 'HANDED-OVER']) {
      const second = fx.server.requests.filter((request) => firstUserText(request).includes(key))[1];
      assert.ok(second, `${key} made a second request`);
      assert.match(lastUserText(second), REFUSED, `${key}: the edit was not refused`);
      assert.match(allText(second), /DOCS-ROLE/, `${key} ran in the mode`);
    }
  });
});
