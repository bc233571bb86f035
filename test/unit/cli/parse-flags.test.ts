import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFlags, UsageError } from '../../../src/cli/usage-error.js';

const OPTIONS = {
  out: { type: 'string', default: 'human' },
  tag: { type: 'string', multiple: true },
  force: { type: 'boolean', short: 'f' },
} as const;

/** The UsageError `run` throws (fails when it throws nothing or something else). */
function usageErrorOf(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a UsageError');
}

describe('parseFlags', () => {
  it('reads flags, defaults, repeated and short flags, and positionals', () => {
    const { values, positionals } = parseFlags(['-f', '--tag', 'a', 'task', '--tag=b'], OPTIONS, { positionals: true });
    assert.deepEqual({ ...values }, { out: 'human', tag: ['a', 'b'], force: true });
    assert.deepEqual(positionals, ['task']);
    // Typed per option: these lines would not compile if values were loosely typed.
    const out: string = values.out;
    const tags: string[] | undefined = values.tag;
    const force: boolean | undefined = values.force;
    assert.deepEqual([out, tags, force], ['human', ['a', 'b'], true]);
  });

  it('does not change the arguments it is given', () => {
    const args = Object.freeze(['--out', 'json', 'x']);
    assert.equal(parseFlags(args, OPTIONS, { positionals: true }).values.out, 'json');
    assert.deepEqual(args, ['--out', 'json', 'x']);
  });

  it("turns node's message about an unknown flag into a UsageError with the usage after it", () => {
    const error = usageErrorOf(() => parseFlags(['--nope'], OPTIONS, { positionals: true, usage: 'Usage: thing [--out FORMAT]' }));
    assert.match(error.message, /^Unknown option '--nope'\..*\nUsage: thing \[--out FORMAT\]$/s);
  });

  it("gives node's message alone when there is no usage text", () => {
    const error = usageErrorOf(() => parseFlags(['--out'], OPTIONS, { positionals: true }));
    assert.match(error.message, /^Option '--out <value>' argument missing$/);
  });

  it('is strict: a value given to a boolean flag is a usage error', () => {
    const error = usageErrorOf(() => parseFlags(['--force=yes'], OPTIONS, { positionals: true }));
    assert.match(error.message, /--force/);
    assert.doesNotMatch(error.message, /\n/);
  });

  it('refuses a positional argument when positionals are not allowed', () => {
    const error = usageErrorOf(() => parseFlags(['stray'], OPTIONS, { positionals: false, usage: 'Usage: thing' }));
    assert.match(error.message, /^Unexpected argument 'stray'\..*\nUsage: thing$/s);
    assert.deepEqual(parseFlags([], OPTIONS, { positionals: false }).positionals, []);
  });
});
