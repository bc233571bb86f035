// Rule front matter as each agent writes it, Cursor's `.mdc` shapes first (its unquoted globs are not YAML).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseRule } from '../../../src/core/rules/rule-front-matter.js';

const mdc = (front: string, body = 'Use type hints.') => parseRule(`---\n${front}\n---\n${body}`);

describe('rule front matter as Cursor writes it', () => {
  test('unquoted globs, as Cursor writes them, keep the rule conditional with no problem', () => {
    for (const [front, globs] of [
      ['globs: **/*.py', ['**/*.py']],
      ['globs: *.py', ['*.py']],
      ['globs: **/*.py, src/**/*.ts', ['**/*.py', 'src/**/*.ts']],
      ['description: Python style\nglobs: **/*.py,*.pyi\nalwaysApply: false', ['**/*.py', '*.pyi']],
      ['globs: [*.py, "*.pyi"]', ['*.py', '*.pyi']],
      ['globs: src/*.{ts,tsx}, lib/**', ['src/*.{ts,tsx}', 'lib/**']],
      ['globs: \'**/*.py\', "*.ts"', ['**/*.py', '*.ts']],
    ] as const) {
      const parsed = mdc(front);
      assert.deepEqual(parsed.conditions.globs, globs, front);
      assert.equal(parsed.conditions.alwaysApply, false, front);
      assert.equal(parsed.problem, undefined, front);
      assert.equal(parsed.body, 'Use type hints.', front);
    }
  });

  test('globs as a YAML list, quoted, or in a YAML block list', () => {
    assert.deepEqual(mdc('globs:\n  - "**/*.py"\n  - src/**/*.ts').conditions.globs, ['**/*.py', 'src/**/*.ts']);
    assert.deepEqual(mdc('globs:\n  - **/*.py\n  - "*.ts"\ndescription: x: y').conditions.globs, ['**/*.py', '*.ts'], 'read line by line when it is not YAML');
    assert.deepEqual(mdc('globs: "**/*.py"').conditions, { globs: ['**/*.py'], alwaysApply: false });
    assert.deepEqual(mdc('paths:\n  - "src/**/*.tsx"').conditions, { globs: ['src/**/*.tsx'], alwaysApply: false });
    assert.deepEqual(mdc('applyTo: "**/*.cs"').conditions, { globs: ['**/*.cs'], alwaysApply: false });
  });

  test('alwaysApply, empty globs, a description only, and a manual rule', () => {
    assert.deepEqual(mdc('description:\nglobs: **/*.py\nalwaysApply: true').conditions, { globs: ['**/*.py'], alwaysApply: true });
    assert.deepEqual(mdc('description:\nglobs:\nalwaysApply: true').conditions, { globs: [], alwaysApply: true });
    assert.deepEqual(mdc('description: When writing SQL migrations\nglobs:\nalwaysApply: false').conditions, {
      globs: [],
      alwaysApply: true,
      description: 'When writing SQL migrations',
    });
    assert.deepEqual(mdc('description:\nglobs:\nalwaysApply: false').conditions, { globs: [], alwaysApply: false, manual: true });
    assert.deepEqual(parseRule('no front matter').conditions, { globs: [], alwaysApply: true });
    assert.deepEqual(mdc('').conditions, { globs: [], alwaysApply: true });
  });

  test('a front matter that cannot be read never makes the rule always on', () => {
    for (const front of ['globs **/*.py', 'globs: [**/*.py', 'globs: 5', 'alwaysApply: maybe', 'globs: [a.py, [b.py]]', 'globs: {py: true}']) {
      const parsed = mdc(front);
      assert.equal(parsed.conditions.alwaysApply, false, front);
      assert.equal(parsed.conditions.unreadable, true, front);
      assert.match(parsed.problem ?? '', /front matter cannot be read \(.+\); the rule is not applied/, front);
      assert.equal(parsed.body, 'Use type hints.', front);
    }
    const unclosed = parseRule('---\nglobs: **/*.py\nUse type hints.');
    assert.equal(unclosed.conditions.unreadable, true);
    assert.match(unclosed.problem ?? '', /no closing "---" line/);
  });

  test('a Markdown file that opens with a --- line, a byte order mark and CRLF line ends', () => {
    const ruled = '---\n# Style\nKeep it short.\n---\nMore.';
    assert.deepEqual(parseRule(ruled), { conditions: { globs: [], alwaysApply: true }, body: ruled });
    assert.deepEqual(parseRule('---\n- one\n- two\n---\nx').conditions, { globs: [], alwaysApply: true });
    assert.deepEqual(parseRule('---\n# Title\n\nText.').conditions, { globs: [], alwaysApply: true });
    const bom = parseRule('\uFEFF---\r\nglobs: **/*.py\r\nalwaysApply: false\r\n---\r\nUse type hints.');
    assert.deepEqual(bom.conditions, { globs: ['**/*.py'], alwaysApply: false });
    assert.equal(bom.body, 'Use type hints.');
  });

  test('a readable globs line still decides when a rule with another broken line applies', () => {
    const parsed = mdc('globs: **/*.py\nthis line is broken');
    assert.deepEqual(parsed.conditions, { globs: ['**/*.py'], alwaysApply: false });
    assert.match(parsed.problem ?? '', /line 2 \("this line is broken"\) cannot be read/);
  });
});
