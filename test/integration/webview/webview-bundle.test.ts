import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openPanel, snapshotOf, startHarness, taskView, type Harness } from './webview-page.js';

describe('production webview bundle', () => {
  let harness: Harness;
  before(async () => (harness = await startHarness({ production: true })));
  after(() => harness.close());

  test('needs no unsafe-eval, loads nothing remote and carries no React runtime', () => {
    const js = readFileSync(join(harness.outdir, 'webview.js'), 'utf8');
    assert.doesNotMatch(js, /new Function\s*\(|\beval\s*\(|setTimeout\(\s*["'`]/);
    // The panel runs on Preact's compatibility layer (webview-ui/build.mjs): no React runtime is bundled.
    assert.ok(!/react\.transitional\.element|__CLIENT_INTERNALS_DO_NOT_USE|react-dom\.development/.test(js), "the script bundles React's runtime");
    for (const css of ['webview.css', 'codicon.css']) {
      const text = readFileSync(join(harness.outdir, css), 'utf8');
      assert.doesNotMatch(text, /url\(\s*["']?(https?:)?\/\//, `${css} references a remote resource`);
      assert.doesNotMatch(text, /@import/, `${css} imports another stylesheet`);
    }
    assert.match(readFileSync(join(harness.outdir, 'codicon.css'), 'utf8'), /url\("\.\/codicon\.ttf/);
  });

  test('renders under a strict CSP without violations or errors', async () => {
    const panel = await openPanel(harness);
    try {
      await panel.send(
        snapshotOf(
          taskView(
            [
              { kind: 'task', id: 't', seq: 0, text: 'Check the CSP', ts: 1 },
              { kind: 'assistant', id: 'a', text: '```js\nconsole.log(1)\n```\n<img src=x onerror=alert(1)>', reasoning: 'r', ts: 2 },
              { kind: 'tool', id: 'x', callId: 'c', tool: 'execute_command', params: { command: 'ls' }, status: 'done', output: 'a\nb', ts: 3 },
            ],
            { cost: 0.5 },
          ),
        ),
      );
      await panel.page.getByText('Check the CSP').waitFor();
      // The codicon font loads from next to the stylesheet.
      await panel.page.waitForFunction(() => document.fonts.check('16px codicon'));
      assert.deepEqual(await panel.problems(), []);
    } finally {
      await panel.close();
    }
  });
});
