import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyFails, applyOk, clineBlock, diffOf, lines } from './edit-test-helpers.js';

// 4,000 five-line handlers: 20,000 lines, the size the edit engine must stay cheap on.
const HANDLERS = 4000;

function handler(i: number): string[] {
  return [`function handler${i}(event) {`, `  const value = event.data[${i}];`, `  return process(value, ${i});`, '}', ''];
}

function bigFile(): string {
  const out: string[] = [];
  for (let i = 0; i < HANDLERS; i++) out.push(...handler(i));
  return out.join('\n');
}

/** The big file with handler `i`'s lines replaced. */
function bigFileWith(i: number, replacement: readonly string[]): string {
  const out: string[] = [];
  for (let k = 0; k < HANDLERS; k++) out.push(...(k === i ? replacement : handler(k)));
  return out.join('\n');
}

const FILE = bigFile();

describe('a 20,000-line file', () => {
  test('has 20,000 lines', () => {
    assert.equal(FILE.split('\n').length, 20_000);
  });

  test('an exact edit near the end', () => {
    const result = applyOk(FILE, clineBlock('  return process(value, 3998);', '  return processFast(value, 3998);'));
    const expected = bigFileWith(3998, [...handler(3998).slice(0, 2), '  return processFast(value, 3998);', '}', '']);
    assert.equal(result.content, expected);
    assert.deepEqual(result.strategies, ['exact']);
  });

  test('an edit with 4-space indentation near the end is re-indented', () => {
    const search = lines('function handler3999(event) {', '    const value = event.data[3999];', '    return process(value, 3999);', '}');
    const replace = lines(
      'function handler3999(event) {',
      '    const value = event.data[3999];',
      '    if (!value) {',
      '        return null;',
      '    }',
      '    return process(value, 3999);',
      '}',
    );
    const result = applyOk(FILE, clineBlock(search, replace));
    const expected = bigFileWith(3999, [
      'function handler3999(event) {',
      '  const value = event.data[3999];',
      '  if (!value) {',
      '    return null;',
      '  }',
      '  return process(value, 3999);',
      '}',
      '',
    ]);
    assert.equal(result.content, expected);
    assert.deepEqual(result.strategies, ['indentation']);
  });

  test('line-number prefixes and a block anchor near the end', () => {
    const numbered = applyOk(
      FILE,
      clineBlock(
        lines('19992 |   const value = event.data[3998];', '19993 |   return process(value, 3998);'),
        lines('19992 |   const value = event.data[3998] ?? 0;', '19993 |   return process(value, 3998);'),
      ),
    );
    assert.equal(
      numbered.content,
      bigFileWith(3998, ['function handler3998(event) {', '  const value = event.data[3998] ?? 0;', '  return process(value, 3998);', '}', '']),
    );
    assert.deepEqual(numbered.strategies, ['line-numbers']);

    const anchored = applyOk(
      FILE,
      clineBlock(
        lines('function handler3997(event) {', '  const value = event.data[3997];', '  return processs(value, 3997);', '}'),
        lines('function handler3997(event) {', '  return 0;', '}'),
      ),
    );
    assert.equal(anchored.content, bigFileWith(3997, ['function handler3997(event) {', '  return 0;', '}', '']));
    assert.deepEqual(anchored.strategies, ['block-anchor']);
  });

  test('fifty blocks spread over the file all apply', () => {
    const picked = Array.from({ length: 50 }, (_, k) => k * 80 + 7);
    const diff = diffOf(...picked.map((i) => clineBlock(`  return process(value, ${i});`, `  return done(${i});`)));
    const result = applyOk(FILE, diff);
    const expected: string[] = [];
    for (let i = 0; i < HANDLERS; i++) {
      const lines = handler(i);
      if (picked.includes(i)) lines[2] = `  return done(${i});`;
      expected.push(...lines);
    }
    assert.equal(result.content, expected.join('\n'));
    assert.equal(result.strategies.length, 50);
  });

  test('text not found near the end shows the closest region there', () => {
    const failure = applyFails(FILE, clineBlock(lines('function handler3996(evt) {', '  const val = evt.data[3996];'), 'x'));
    assert.match(
      failure.error,
      /\nThe closest region of the file is lines 19981-19982 \(\d+% similar\):\n19981 \| function handler3996\(event\) \{\n19982 \| {3}const value = event\.data\[3996\];\n/,
    );
  });

  test('an ambiguous line is refused with the number of occurrences', () => {
    const failure = applyFails(FILE, clineBlock('}', '};'));
    assert.match(
      failure.error,
      /^SEARCH block 1 of 1 occurs 4000 times in the file \(matching exactly\), at lines 4, 9, 14, 19, 24, 29, 34, 39, 44, 49 and 3990 more, so it is ambiguous/,
    );
  });
});

/** Runs `work` counting the times any string of at least `minLength` characters was split. */
function countLargeSplits(minLength: number, work: () => void): number {
  const original = String.prototype.split;
  let count = 0;
  String.prototype.split = function (this: string, ...args: Parameters<typeof original>) {
    if (this.length >= minLength) count++;
    return original.apply(this, args);
  } as typeof original;
  try {
    work();
  } finally {
    String.prototype.split = original;
  }
  return count;
}

describe('an exact edit on a 20,000-line file', () => {
  test('finds and splices the text without splitting the file into lines', () => {
    const search = handler(3000).slice(0, 4).join('\n');
    const replace = search.replace('process(value', 'processNow(value');
    let content = '';
    const splits = countLargeSplits(FILE.length / 2, () => {
      content = applyOk(FILE, clineBlock(search, replace)).content;
    });
    assert.equal(splits, 0);
    assert.equal(content, FILE.replace(search, replace));
  });

  test('keeps the final newline state when the edit reaches the end of the file', () => {
    const last = handler(HANDLERS - 1)
      .slice(0, 4)
      .join('\n');
    // FILE ends with the last handler's empty line, so it has a final newline.
    assert.equal(applyOk(FILE, clineBlock(last, 'function gone() {}')).content, `${FILE.slice(0, FILE.length - last.length - 1)}function gone() {}\n`);
    const noFinal = FILE.slice(0, -1);
    assert.equal(applyOk(noFinal, clineBlock(last, 'function gone() {}')).content, `${noFinal.slice(0, noFinal.length - last.length)}function gone() {}`);
    // Removing the last lines takes the newline before them, and the file still has no final newline:
    // the blank line before them loses its newline too.
    assert.equal(applyOk(noFinal, clineBlock(last, '')).content, noFinal.slice(0, noFinal.length - last.length - 2));
    assert.equal(applyOk(FILE, clineBlock(last, '')).content, FILE.slice(0, FILE.length - last.length - 1));
  });
});

describe('a SEARCH not found on a 20,000-line file', () => {
  test('is explained with the closest region without splitting the file into lines', () => {
    // The first line is nowhere in the file, so no tolerant strategy needs the file's lines.
    const search = lines('function handler3996(evt) {', '  const value = event.data[3996];', '  return process(value, 3996);');
    let failure: ReturnType<typeof applyFails> | undefined;
    const splits = countLargeSplits(FILE.length / 2, () => {
      failure = applyFails(FILE, clineBlock(search, 'x'));
    });
    assert.equal(splits, 0);
    assert.match(failure!.error, /\nThe closest region of the file is lines 19981-19983 \(\d+% similar\):\n19981 \| function handler3996\(event\) \{\n/);
  });
});
