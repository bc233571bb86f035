import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareUrl } from '../../../src/core/worktrees/compare-url.js';

describe('the address that opens a pull request on GitHub, from the remote URL', () => {
  it('is the compare page of the repository for every spelling of a GitHub remote', () => {
    const expected = 'https://github.com/acme/shop/compare/main...smith/fix-login?expand=1';
    for (const url of [
      'https://github.com/acme/shop.git',
      'https://github.com/acme/shop',
      'https://github.com/acme/shop/',
      'git@github.com:acme/shop.git',
      'github.com:acme/shop',
      'ssh://git@github.com/acme/shop.git',
      'ssh://git@github.com:22/acme/shop.git',
      'git://github.com/acme/shop.git',
      '  https://GitHub.com/acme/shop.git\n',
    ]) {
      assert.equal(compareUrl(url, 'main', 'smith/fix-login'), expected, url);
    }
  });

  it('never carries the credentials of the URL', () => {
    const url = compareUrl('https://me:ghp_secret@github.com/acme/shop.git', 'main', 'smith/x');
    assert.equal(url, 'https://github.com/acme/shop/compare/main...smith/x?expand=1');
  });

  it('keeps the host of a GitHub Enterprise server, and its web port', () => {
    assert.equal(
      compareUrl('https://github.example.com:8443/team/app.git', 'release/2.0', 'smith/a'),
      'https://github.example.com:8443/team/app/compare/release/2.0...smith/a?expand=1',
    );
    assert.equal(
      compareUrl('git@github.corp.internal:team/app.git', 'main', 'smith/a'),
      'https://github.corp.internal/team/app/compare/main...smith/a?expand=1',
    );
  });

  it('percent-encodes what a base branch may hold that an address cannot', () => {
    assert.equal(compareUrl('https://github.com/acme/shop.git', 'feat#1?x', 'smith/a'), 'https://github.com/acme/shop/compare/feat%231%3Fx...smith/a?expand=1');
  });

  it('gives none for a local path, another host, or a path that is not OWNER/REPO', () => {
    for (const url of [
      '/srv/git/shop.git',
      './shop.git',
      'file:///srv/git/shop.git',
      'C:/repos/shop.git',
      'https://gitlab.com/acme/shop.git',
      'https://notgithub.com/acme/shop.git',
      'https://github.com/acme/group/shop.git',
      'https://github.com/acme',
      'https://github.com/../shop.git',
      'https://github.com/acme/shop.git?x=1',
      '',
    ]) {
      assert.equal(compareUrl(url, 'main', 'smith/a'), undefined, url);
    }
  });
});
