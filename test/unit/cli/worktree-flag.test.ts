import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs } from '../../../src/cli/args.js';
import { UsageError } from '../../../src/cli/usage-error.js';

describe('--worktree [NAME]', () => {
  const parse = (...argv: string[]) => parseCliArgs(argv, '/work');
  it('is absent unless given', () => {
    assert.equal(parse('fix it').worktree, undefined);
  });
  it('takes the next word as the name when a task follows it', () => {
    const options = parse('--worktree', 'fix-login', 'Fix the login form');
    assert.deepEqual(options.worktree, { name: 'fix-login' });
    assert.equal(options.task, 'Fix the login form');
  });
  it('takes the next argument as the task when nothing follows it, or it has spaces', () => {
    assert.deepEqual(parse('--worktree', 'refactor').worktree, {});
    assert.equal(parse('--worktree', 'refactor').task, 'refactor');
    const spaced = parse('--worktree', 'Fix the bug', '--model', 'm');
    assert.deepEqual(spaced.worktree, {});
    assert.equal(spaced.task, 'Fix the bug');
  });
  it('does not mistake a flag value for a task', () => {
    const options = parse('--worktree', 'name', '--model', 'gpt-x');
    assert.deepEqual(options.worktree, {});
    assert.equal(options.task, 'name');
    assert.equal(options.model, 'gpt-x');
  });
  it('reads --worktree=NAME, and flags on both sides', () => {
    const options = parse('--model', 'm', '--worktree=my name', '--yes', 'do it');
    assert.deepEqual(options.worktree, { name: 'my name' });
    assert.equal(options.task, 'do it');
    assert.equal(options.yes, true);
    assert.deepEqual(parse('--worktree', '--yes', 'do it').worktree, {});
  });
  it('leaves an argument after -- alone', () => {
    const options = parse('--', '--worktree', 'x');
    assert.equal(options.worktree, undefined);
    assert.equal(options.task, '--worktree x');
  });
  it('refuses an empty name and a second --worktree', () => {
    assert.throws(() => parse('--worktree=', 'x'), UsageError);
    assert.throws(() => parse('--worktree', 'a', '--worktree', 'b', 'x'), /given twice/);
  });
});
