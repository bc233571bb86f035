import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { locateBlock } from '../../../src/core/edit/block-locator.js';
import { findClosestRegion, lookUpClosestRegion } from '../../../src/core/edit/closest-region.js';
import { isBlank, punctuationNormaliser } from '../../../src/core/edit/line-normalisers.js';
import { FileSample, planLookups } from '../../../src/core/edit/lookup-keys.js';
import { TextLines } from '../../../src/core/edit/text-lines.js';
import { WindowBruteForce } from './brute-force-region.js';
import { applyMistake, codeLikeFile, MISTAKES, type Mistake, seededRandom } from './code-like-files.js';

// Large files are not scanned line by line for the closest region: it is looked up from a few keys
// of the SEARCH (region-lookup.ts). Judged here against the best window found by comparing every
// window, on SEARCH texts copied from a region of a generated file with a model's mistakes.

interface QualityCase {
  readonly fileLines: readonly string[];
  readonly text: string;
  readonly brute: WindowBruteForce;
  /** The lines the SEARCH was copied from: [first, end). */
  readonly source: { readonly first: number; readonly end: number };
  readonly search: string[];
  readonly mistakes: readonly Mistake[];
}

const FILE_SIZES = [2_000, 3_500, 5_000, 8_000, 11_000, 14_000, 17_000, 20_000];
const CASES_PER_FILE = 20;

function* qualityCases(): Generator<QualityCase> {
  for (const [fileIndex, size] of FILE_SIZES.entries()) {
    const random = seededRandom(7_919 * (fileIndex + 1));
    const fileLines = codeLikeFile(random, size);
    const text = `${fileLines.join('\n')}\n`;
    const brute = new WindowBruteForce(fileLines);
    const lines = new TextLines(text);
    for (let made = 0; made < CASES_PER_FILE; ) {
      const length = 3 + Math.floor(random() * 10);
      const first = Math.floor(random() * (size - length));
      const end = first + length;
      const copied = fileLines.slice(first, end);
      // A SEARCH is copied from non-blank edges, and from text that occurs once (else the model's edit is ambiguous anyway).
      if (isBlank(copied[0]!) || isBlank(copied.at(-1)!) || text.indexOf(copied.join('\n')) !== text.lastIndexOf(copied.join('\n'))) continue;
      const mistakes = random() < 0.7 ? [pickMistake(random)] : [pickMistake(random), pickMistake(random)];
      const search = [...copied];
      if (!mistakes.every((mistake) => applyMistake(random, search, mistake))) continue;
      if (locateBlock(search, [], lines, 0, undefined).kind !== 'not-found') continue;
      made++;
      yield { fileLines, text, brute, source: { first, end }, search, mistakes };
    }
  }
}

function pickMistake(random: () => number): Mistake {
  return MISTAKES[Math.floor(random() * MISTAKES.length)]!;
}

describe('the closest region of a large file, found by look-ups', () => {
  // Measured on these 160 cases when written: 99.4% within 0.9 of the best window's similarity,
  // 100% name the copied region. The test prints the rates it measures as diagnostics.
  test('is nearly as similar as the best window and names the copied region', (t) => {
    let total = 0;
    let nearBest = 0;
    let namesSource = 0;
    const misses: string[] = [];
    for (const testCase of qualityCases()) {
      total++;
      const wanted = testCase.search
        .filter((line) => !isBlank(line))
        .slice(0, 20)
        .map(punctuationNormaliser);
      const region = lookUpClosestRegion(testCase.text, testCase.search);
      const copiedFrom = testCase.brute.lineIndex.indexOf(testCase.source.first);
      const named = region ? testCase.brute.lineIndex.indexOf(region.startLine) : -1;
      const best = testCase.brute.best(wanted, [copiedFrom - 2, copiedFrom - 1, copiedFrom, copiedFrom + 1, copiedFrom + 2, named]);
      let similarity = 0;
      if (region) {
        const position = testCase.brute.lineIndex.indexOf(region.startLine);
        assert.ok(position >= 0, 'the region starts on a non-blank line');
        similarity = testCase.brute.similarityAt(wanted, position);
        assert.equal(region.similarity, similarity, 'the reported similarity is the window’s');
        assert.deepEqual(region.lines, testCase.fileLines.slice(region.startLine, region.startLine + region.lines.length));
      }
      const isNearBest = similarity >= 0.9 * best.similarity;
      // A SEARCH that lost a line is compared on one line fewer, so its window may leave that many out.
      const allowed = testCase.mistakes.filter((mistake) => mistake === 'missing line').length;
      const start = region?.startLine ?? -1;
      const overlap = Math.min(testCase.source.end, start + (region?.lines.length ?? 0)) - Math.max(testCase.source.first, start);
      const isSource = overlap >= testCase.source.end - testCase.source.first - allowed;
      if (isNearBest) nearBest++;
      if (isSource) namesSource++;
      if (!isNearBest || !isSource) {
        misses.push(
          `${testCase.mistakes.join('+')}: named line ${start} (${similarity.toFixed(2)}), copied from ${testCase.source.first}, best ${best.similarity.toFixed(2)} at ${testCase.brute.lineIndex[best.position]}`,
        );
      }
    }
    const nearBestRate = nearBest / total;
    const namesSourceRate = namesSource / total;
    t.diagnostic(
      `${total} cases: within 0.9 of the best window's similarity ${(100 * nearBestRate).toFixed(1)}%, names the copied region ${(100 * namesSourceRate).toFixed(1)}%`,
    );
    for (const miss of misses) t.diagnostic(miss);
    assert.ok(nearBestRate >= 0.95, `within 0.9 of the best in ${(100 * nearBestRate).toFixed(1)}% of cases`);
    assert.ok(namesSourceRate >= 0.9, `names the copied region in ${(100 * namesSourceRate).toFixed(1)}% of cases`);
  });
});

describe('the brute force the look-ups are judged against', () => {
  test('finds the best similarity of every window, as the plain loop does', () => {
    const random = seededRandom(31);
    for (let file = 0; file < 4; file++) {
      const fileLines = codeLikeFile(random, 300);
      const brute = new WindowBruteForce(fileLines);
      for (let i = 0; i < 10; i++) {
        const first = Math.floor(random() * 280);
        const search = fileLines.slice(first, first + 2 + Math.floor(random() * 8)).filter((line) => !isBlank(line));
        if (search.length === 0) continue;
        applyMistake(random, search, MISTAKES[i % MISTAKES.length]!);
        const wanted = search.filter((line) => !isBlank(line)).map(punctuationNormaliser);
        assert.equal(brute.best(wanted, [Math.floor(random() * 300)]).similarity, brute.bestByPlainLoop(wanted).similarity);
      }
    }
  });
});

/** 4,000 small handlers, then the given lines, then 100 more: a file well past the full scan's size. */
function handlersAround(region: readonly string[]): { text: string; regionStart: number } {
  const lines: string[] = [];
  const handler = (i: number) => [`function handler${i}(event) {`, `  const value = event.data[${i}];`, `  return process(value, ${i});`, '}', ''];
  for (let i = 0; i < 4000; i++) lines.push(...handler(i));
  const regionStart = lines.length;
  lines.push(...region);
  for (let i = 4000; i < 4100; i++) lines.push(...handler(i));
  return { text: lines.join('\n'), regionStart };
}

describe('lookUpClosestRegion', () => {
  const invoice = [
    'export function totalOfInvoice(invoice: Invoice): Money {',
    '  const lines = invoice.lines.filter((line) => !line.cancelled);',
    '',
    '  const subtotal = lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);',
    '  return applyTax(subtotal, invoice.taxRate);',
    '}',
  ];
  const { text, regionStart } = handlersAround(invoice);

  test('names the copied region near the end of a large file, with its line numbers and blank lines', () => {
    const search = [...invoice.slice(1, 5)];
    search[2] = search[2]!.replace('unitPrice', 'price');
    const region = lookUpClosestRegion(text, search);
    assert.equal(region?.startLine, regionStart + 1);
    assert.deepEqual(region?.lines, invoice.slice(1, 5));
    assert.ok(region.similarity > 0.9 && region.similarity < 1, `similarity ${region.similarity}`);
    // The same answer as findClosestRegion gives a file of this size.
    assert.ok(text.length > 64 * 1024);
    assert.deepEqual(findClosestRegion(text, search), region);
  });

  test('names a region with the same lines when only the indentation differs', () => {
    const region = lookUpClosestRegion(
      text,
      invoice.slice(0, 2).map((line) => `    ${line}`),
    );
    assert.equal(region?.startLine, regionStart);
    assert.equal(region?.similarity, 1);
  });

  test('names a place where plain lines agree when no rare piece of the SEARCH is in the file', () => {
    const region = lookUpClosestRegion(text, ['function handler77(evt) {', '  const value = await fetchQuux(evt.id);']);
    assert.ok(region, 'a region is named');
    assert.match(region.lines[0]!, /^function handler\d+\(event\) \{$/);
    assert.match(region.lines[1]!, /^ {2}const value = event\.data\[\d+\];$/);
  });

  test('names nothing when no line of the file agrees with the SEARCH', () => {
    assert.equal(lookUpClosestRegion(text, ['SELECT * FROM zebra_quokka;', 'DROP TABLE yak;']), undefined);
    assert.equal(lookUpClosestRegion(text, ['', '   ']), undefined);
  });
});

describe('planLookups', () => {
  test('walks the characters the file has least, and grows keys the file has often', () => {
    const lines: string[] = [];
    for (let i = 0; i < 5000; i++) lines.push(`  const item${i} = makeItem(${i % 7}, 'x');`);
    const text = lines.join('\n');
    const wanted = ['const Quota = makeItem(99, mode);'];
    const plan = planLookups(text, wanted, new FileSample(text));
    // `Q` is nowhere in the file: walking it costs one memchr pass.
    assert.deepEqual(plan.get('Q'), [{ text: 'Quot', line: 0, column: 6 }]);
    // `makeItem(` is on every line, so its key grows until the sample no longer holds it.
    for (const keys of plan.values()) for (const key of keys) assert.ok(!key.text.startsWith('make') || key.text.length > 'makeItem('.length, key.text);
  });
});
