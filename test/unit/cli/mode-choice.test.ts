// `--mode NAME` chooses the mode; `--mode plan|act` (what --mode meant before) still chooses
// Plan/Act, with a note, unless a mode has that name.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { UsageError } from '../../../src/cli/usage-error.js';
import { parseCliArgs } from '../../../src/cli/args.js';
import { chooseMode } from '../../../src/cli/mode-choice.js';
import { readModeArgument } from '../../../src/shared/builtin-commands.js';

const BUILT_IN = [{ slug: 'code' }, { slug: 'architect' }, { slug: 'ask' }];

describe('the mode flags', () => {
  test('--mode NAME, --plan and --act are read apart; --skill is the older --mode, with a note', () => {
    const modeOnly = parseCliArgs(['--mode', 'architect', 'x'], '/');
    assert.equal(modeOnly.modeSlug, 'architect');
    assert.equal(modeOnly.mode, 'act');
    assert.equal(modeOnly.planActGiven, false);
    assert.deepEqual(modeOnly.deprecations, []);
    const plan = parseCliArgs(['--plan', 'x'], '/');
    assert.equal(plan.mode, 'plan');
    assert.equal(plan.planActGiven, true);
    assert.equal(plan.modeSlug, undefined);
    assert.equal(parseCliArgs(['--act', 'x'], '/').planActGiven, true);
    const older = parseCliArgs(['--skill', 'ask', 'x'], '/');
    assert.equal(older.modeSlug, 'ask');
    assert.match(older.deprecations.join('\n'), /--skill is deprecated .*--mode NAME/);
    assert.throws(() => parseCliArgs(['--plan', '--act', 'x'], '/'), UsageError);
    assert.throws(() => parseCliArgs(['--mode', 'ask', '--skill', 'code', 'x'], '/'), /older spelling of --mode/);
    assert.throws(() => parseCliArgs(['--mode', ' ', 'x'], '/'), /--mode needs a mode name/);
  });

  test('a known mode is chosen as it is; an unknown one is a usage error listing the modes', () => {
    assert.deepEqual(chooseMode({ mode: 'act', planActGiven: false, modeSlug: 'ask' }, BUILT_IN), {
      mode: 'act',
      planActGiven: false,
      modeSlug: 'ask',
      notes: [],
    });
    assert.deepEqual(chooseMode({ mode: 'plan', planActGiven: true }, BUILT_IN), { mode: 'plan', planActGiven: true, notes: [] });
    assert.throws(() => chooseMode({ mode: 'act', planActGiven: false, modeSlug: 'turbo' }, BUILT_IN), /unknown mode "turbo"; available: code, architect, ask/);
  });

  test('--mode plan and --mode act choose Plan/Act with a note while no mode has that name', () => {
    const plan = chooseMode({ mode: 'act', planActGiven: false, modeSlug: 'plan' }, BUILT_IN);
    assert.equal(plan.mode, 'plan');
    assert.equal(plan.planActGiven, true);
    assert.equal(plan.modeSlug, undefined);
    assert.match(plan.notes.join('\n'), /--mode plan is deprecated for Plan\/Act .* use --plan/);
    assert.equal(chooseMode({ mode: 'act', planActGiven: false, modeSlug: 'act' }, BUILT_IN).mode, 'act');
    assert.throws(() => chooseMode({ mode: 'act', planActGiven: true, modeSlug: 'plan' }, BUILT_IN), /--mode plan contradicts --act/);
    const named = chooseMode({ mode: 'act', planActGiven: false, modeSlug: 'plan' }, [...BUILT_IN, { slug: 'plan' }]);
    assert.deepEqual(named, { mode: 'act', planActGiven: false, modeSlug: 'plan', notes: [] });
  });

  test('/mode ARG: a mode by name, Plan/Act only while no mode has that name, a list without one', () => {
    const slugs = BUILT_IN.map((m) => m.slug);
    assert.deepEqual(readModeArgument('  ', slugs), { kind: 'list' });
    assert.deepEqual(readModeArgument(' ask ', slugs), { kind: 'mode', slug: 'ask' });
    assert.deepEqual(readModeArgument('plan', slugs), { kind: 'planAct', planAct: 'plan' });
    assert.deepEqual(readModeArgument('plan', [...slugs, 'plan']), { kind: 'mode', slug: 'plan' });
    assert.deepEqual(readModeArgument('Plan', slugs), { kind: 'unknown', slug: 'Plan' });
    assert.deepEqual(readModeArgument('turbo', slugs), { kind: 'unknown', slug: 'turbo' });
  });
});
