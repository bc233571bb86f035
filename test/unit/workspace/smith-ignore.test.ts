import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { loadSmithIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

describe('loadSmithIgnore', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = createTempWorkspace();
  });
  afterEach(() => ws.dispose());

  test('ignores nothing when there is no .smithignore', async () => {
    ws.write('secrets/key.txt', 'k');
    const policy = await loadSmithIgnore(ws.root);
    assert.equal(policy.source, '.smithignore');
    assert.equal(policy.isIgnored(join(ws.root, 'secrets/key.txt')), false);
    assert.equal(policy.isIgnored(join(ws.root, '.smithignore')), false);
  });

  test('applies gitignore syntax relative to the workspace root', async () => {
    ws.write('.smithignore', '# private\nsecrets/\n*.pem\n!public.pem\n/top.txt\n');
    ws.write('secrets/deep/key.txt', 'k');
    ws.write('lib/secrets', 'a file, not a folder');
    ws.write('certs/server.pem', 'p');
    ws.write('certs/public.pem', 'p');
    ws.write('top.txt', 't');
    ws.write('lib/top.txt', 't');
    const policy = await loadSmithIgnore(ws.root);
    const ignored = (rel: string): boolean => policy.isIgnored(join(ws.root, rel));
    assert.equal(ignored('secrets'), true, 'the folder itself');
    assert.equal(ignored('secrets/deep/key.txt'), true, 'files inside a folder rule');
    assert.equal(ignored('lib/secrets'), false, 'a folder rule does not match a file');
    assert.equal(ignored('certs/server.pem'), true);
    assert.equal(ignored('certs/public.pem'), false, 'negation');
    assert.equal(ignored('top.txt'), true);
    assert.equal(ignored('lib/top.txt'), false, 'anchored rule');
    assert.equal(ignored('not-yet-created.pem'), true, 'paths that do not exist yet');
  });

  test('fences off .smithignore itself, never the root or paths outside', async () => {
    ws.write('.smithignore', '*.txt\n');
    const policy = await loadSmithIgnore(ws.root);
    assert.equal(policy.isIgnored(join(ws.root, '.smithignore')), true);
    assert.equal(policy.isIgnored(ws.root), false);
    assert.equal(policy.isIgnored(join(ws.root, '..', 'elsewhere.txt')), false);
    assert.equal(policy.isIgnored('/etc/hosts.txt'), false);
  });

  test('judges real paths when the workspace is opened through a symlink', async () => {
    const outer = createTempWorkspace('smith-link-');
    try {
      ws.write('.smithignore', 'private/\n');
      mkdirSync(join(ws.root, 'private'));
      const link = join(outer.root, 'project');
      symlinkSync(ws.root, link);
      const policy = await loadSmithIgnore(link);
      assert.equal(policy.isIgnored(join(ws.root, 'private', 'a.txt')), true);
      assert.equal(policy.isIgnored(join(link, 'private', 'a.txt')), true);
      assert.equal(policy.isIgnored(join(link, 'public.txt')), false);
    } finally {
      outer.dispose();
    }
  });
});
