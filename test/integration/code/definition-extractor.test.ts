import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CODE_LANGUAGES, languageForPath, type CodeLanguage } from '../../../src/core/code/code-languages.js';
import { extractDefinitions, type CodeDefinition } from '../../../src/core/code/definition-extractor.js';
import { EXPECTED_DEFINITION_NAMES } from '../../fixtures/code/expected-definitions.js';

const FIXTURES = join(__dirname, '../../fixtures/code');

function language(id: CodeLanguage['id']): CodeLanguage {
  return CODE_LANGUAGES.find((candidate) => candidate.id === id)!;
}

async function definitionsOf(file: string): Promise<{ definitions: CodeDefinition[]; lines: string[] }> {
  const source = readFileSync(join(FIXTURES, file), 'utf8');
  return { definitions: await extractDefinitions(source, languageForPath(file)!), lines: source.split('\n') };
}

/** The source line shown for the definition with this name (the first one, when names repeat). */
function shownLine(found: { definitions: CodeDefinition[]; lines: string[] }, name: string): string | undefined {
  const definition = found.definitions.find((candidate) => candidate.name === name);
  return definition && found.lines[definition.line];
}

describe('extractDefinitions', () => {
  test('covers exactly the twelve required languages, one fixture each', () => {
    assert.deepEqual(
      CODE_LANGUAGES.map((candidate) => candidate.id),
      ['typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'java', 'c', 'cpp', 'csharp', 'ruby', 'php'],
    );
    assert.deepEqual(
      Object.keys(EXPECTED_DEFINITION_NAMES).map((file) => languageForPath(file)?.id),
      CODE_LANGUAGES.map((candidate) => candidate.id),
    );
  });

  for (const [file, expected] of Object.entries(EXPECTED_DEFINITION_NAMES)) {
    test(`finds exactly the definitions of ${file}`, async () => {
      const { definitions } = await definitionsOf(file);
      assert.deepEqual(
        definitions.map((definition) => definition.name),
        expected,
      );
    });
  }

  test('leaves out definitions nested inside functions and methods, keeps class members', async () => {
    const ts = await definitionsOf('sample.ts');
    for (const local of ['local', 'helper']) assert.equal(shownLine(ts, local), undefined);
    assert.equal(ts.definitions.find((definition) => definition.name === 'greet')?.kind, 'method');
    const py = await definitionsOf('sample.py');
    assert.equal(shownLine(py, 'inner'), undefined);
    const java = await definitionsOf('sample.java');
    assert.equal(shownLine(java, 'run'), undefined, 'a method of an anonymous class inside a method');
    const rust = await definitionsOf('sample.rs');
    assert.equal(shownLine(rust, 'clamp'), undefined);
  });

  test('labels each definition with its kind', async () => {
    const kinds = async (file: string) => (await definitionsOf(file)).definitions.map((d) => `${d.kind} ${d.name}`);
    assert.deepEqual(await kinds('sample.go'), ['type Shape', 'type Circle', 'type Meters', 'method Area', 'function NewCircle']);
    assert.deepEqual((await kinds('sample.rs')).slice(2, 7), ['struct Point', 'enum Direction', 'trait Describe', 'function describe', 'impl Point']);
    assert.deepEqual((await kinds('sample.ts')).slice(0, 4), ['interface Greeter', 'type Id', 'enum Color', 'module Shapes']);
  });

  test('shows the line with the name, past decorators, annotations and attributes', async () => {
    assert.equal(shownLine(await definitionsOf('sample.ts'), 'App'), 'export class App implements Greeter {');
    assert.equal(shownLine(await definitionsOf('sample.java'), 'toString'), '    public String toString() {');
    assert.equal(shownLine(await definitionsOf('sample.java'), 'Handler'), 'interface Handler {');
    assert.equal(shownLine(await definitionsOf('sample.cs'), 'Repository'), '    public class Repository : IRepository');
    assert.equal(shownLine(await definitionsOf('sample.php'), 'User'), 'final class User implements HasName');
    assert.equal(shownLine(await definitionsOf('sample.py'), 'decorated'), 'def decorated():');
    assert.equal(shownLine(await definitionsOf('sample.c'), 'square'), 'square(int v)');
  });

  test('shows the first line when the name comes after the body (C typedef)', async () => {
    assert.equal(shownLine(await definitionsOf('sample.c'), 'Size'), 'typedef struct {');
  });

  test('copes with empty, broken and repeated input', async () => {
    assert.deepEqual(await extractDefinitions('', language('typescript')), []);
    const broken = await extractDefinitions('function good() {}\nfunction bad() { let = ; }\nclass After {}\n', language('javascript'));
    assert.deepEqual(
      broken.map((definition) => definition.name),
      ['good', 'bad', 'After'],
    );
    const again = await extractDefinitions('def twice():\n    pass\n', language('python'));
    assert.deepEqual(await extractDefinitions('def twice():\n    pass\n', language('python')), again);
  });

  test('parses JSX in .jsx files and CRLF sources', async () => {
    const jsx = await extractDefinitions('export function View() {\r\n  return <div />;\r\n}\r\n', languageForPath('view.jsx')!);
    assert.deepEqual(
      jsx.map((definition) => [definition.name, definition.line]),
      [['View', 0]],
    );
  });
});
