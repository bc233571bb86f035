import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readModeFile } from '../../../src/core/modes/mode-file.js';
import { modeSummary } from '../../../src/core/modes/mode.js';

const read = (text: string) => readModeFile('.roomodes', '/ws/.roomodes', text);

const ROO_YAML = `customModes:
  - slug: docs-writer
    name: 📝 Documentation Writer
    roleDefinition: You are a technical writer. You write clear documentation.
    whenToUse: Use this mode for writing and editing documentation.
    description: Writes docs
    customInstructions: Focus on clarity.
    groups:
      - read
      - - edit
        - fileRegex: \\.(md|mdx)$
          description: Markdown files only
      - browser
      - modes
    source: project
    iconName: codicon-book
`;

describe('mode files in Roo Code and Smith shapes', () => {
  test("a .roomodes in YAML gives the mode with its restricted edit group, whenToUse and description; Roo's own fields are left out", () => {
    const { modes, errors } = read(ROO_YAML);
    assert.deepEqual(errors, []);
    assert.deepEqual(modes, [
      {
        slug: 'docs-writer',
        name: '📝 Documentation Writer',
        roleDefinition: 'You are a technical writer. You write clear documentation.',
        whenToUse: 'Use this mode for writing and editing documentation.',
        description: 'Writes docs',
        customInstructions: 'Focus on clarity.',
        groups: ['read', { group: 'edit', fileRegex: '\\.(md|mdx)$', description: 'Markdown files only' }, 'browser', 'interaction'],
        source: '/ws/.roomodes',
      },
    ]);
  });

  test('the same file in JSON (told by its content, whatever its name) gives the same modes', () => {
    const json = JSON.stringify({
      customModes: [
        {
          slug: 'docs-writer',
          name: '📝 Documentation Writer',
          roleDefinition: 'You are a technical writer. You write clear documentation.',
          whenToUse: 'Use this mode for writing and editing documentation.',
          description: 'Writes docs',
          customInstructions: 'Focus on clarity.',
          groups: ['read', ['edit', { fileRegex: '\\.(md|mdx)$', description: 'Markdown files only' }], 'browser', 'modes'],
          source: 'project',
        },
      ],
    });
    assert.deepEqual(read(`\uFEFF${json}`), read(ROO_YAML));
    assert.deepEqual(read(JSON.stringify(JSON.parse(json), null, '\t')), read(ROO_YAML));
  });

  test("Smith's own shapes still load: one mode, a modes: list, and the object form of a restricted group", () => {
    const one = readModeFile('a.yaml', '/s/a.yaml', 'slug: rev\nname: Rev\nroleDefinition: You review.\ngroups: [read, {group: edit, fileRegex: "^docs/"}]\n');
    assert.deepEqual(one.errors, []);
    assert.deepEqual(one.modes[0]?.groups, ['read', { group: 'edit', fileRegex: '^docs/' }]);
    const list = readModeFile('b.json', '/s/b.json', JSON.stringify({ modes: [{ slug: 'a', name: 'A', roleDefinition: 'r', groups: [] }] }));
    assert.deepEqual(
      list.modes.map((m) => m.slug),
      ['a'],
    );
  });

  test('an empty file, or customModes: [] as Roo Code writes it first, defines nothing and is no error', () => {
    for (const text of ['', '\n', 'customModes: []\n', '{}', '{"customModes": []}', 'customModes:\n'])
      assert.deepEqual(read(text), { modes: [], errors: [] }, text);
  });

  test('malformed YAML or JSON is one clear error naming the file', () => {
    const yaml = read('customModes:\n  - slug: [unclosed\n');
    assert.deepEqual(yaml.modes, []);
    assert.match(yaml.errors[0]!, /^Mode file \.roomodes could not be read: /);
    const json = read('{"customModes": [ {"slug": "a",, } ]}');
    assert.equal(json.errors.length, 1);
    assert.match(json.errors[0]!, /^Mode file \.roomodes could not be read: not valid JSON/);
    assert.match(read('customModes: 3\n').errors[0]!, /customModes must be a list of modes/);
    assert.match(read('- a\n- b\n').errors[0]!, /expected customModes: \[\.\.\.\]/);
  });

  test('a broken entry costs only itself: the other modes of the file load, and each problem names the entry and field', () => {
    const entry = (slug: unknown, extra: Record<string, unknown> = {}) => ({
      slug,
      name: `N ${String(slug)}`,
      roleDefinition: 'R.',
      groups: ['read'],
      ...extra,
    });
    const text = JSON.stringify({
      customModes: [
        entry('good'),
        { name: 'No slug', roleDefinition: 'R.', groups: [] },
        entry('bad slug!'),
        entry('good'),
        entry('-dash'),
        entry('regex', { groups: [['edit', { fileRegex: '(' }]] }),
        entry('group', { groups: ['read', 'teleport'] }),
        entry('twice', { groups: ['edit', ['edit', { fileRegex: '\\.md$' }]] }),
        entry('norole', { roleDefinition: '  ' }),
        entry('also-good', { groups: ['read', 'modes', 'interaction'] }),
      ],
    });
    const { modes, errors } = read(text);
    assert.deepEqual(
      modes.map((m) => m.slug),
      ['good', 'also-good'],
    );
    assert.equal(errors.length, 8, errors.join('\n'));
    assert.match(errors[0]!, /invalid at customModes\[1\]\.slug: it is required; this mode is not used \(the file's other modes are\)/);
    assert.match(errors[1]!, /invalid at customModes\[2\]\.slug: use letters, digits and dashes.*the mode "bad slug!" is not used/);
    assert.match(errors[2]!, /invalid at customModes\[3\]\.slug: "good" is already defined by customModes\[0\]; the later one is not used/);
    assert.match(errors[3]!, /customModes\[4\]\.slug/);
    assert.match(errors[4]!, /customModes\[5\]\.groups\.0: fileRegex "\(" is not a valid regular expression.*the mode "regex" is not used/);
    assert.match(errors[5]!, /customModes\[6\]\.groups\.1: unknown group "teleport"/);
    assert.match(errors[6]!, /customModes\[7\]\.groups\.1: the edit group is listed twice/);
    assert.match(errors[7]!, /customModes\[8\]\.roleDefinition: must not be blank/);
  });

  test('a fileRegex longer than 1,000 characters is refused with the mode', () => {
    const text = JSON.stringify({ customModes: [{ slug: 'long', name: 'L', roleDefinition: 'R.', groups: [['edit', { fileRegex: 'a'.repeat(1001) }]] }] });
    assert.match(read(text).errors[0]!, /fileRegex is longer than 1000 characters/);
  });

  test('the summary is whenToUse, else description, else the first sentence of the role, folded and cut at 200 characters', () => {
    const base = { slug: 's', name: 'S', roleDefinition: 'You are a tester.  You test\neverything.', groups: [], source: 'x' } as const;
    assert.equal(modeSummary({ ...base, whenToUse: 'When testing.', description: 'Tests' }), 'When testing.');
    assert.equal(modeSummary({ ...base, whenToUse: '  ', description: 'Tests\nthings' }), 'Tests things');
    assert.equal(modeSummary(base), 'You are a tester.');
    assert.equal(modeSummary({ ...base, roleDefinition: 'No full stop here' }), 'No full stop here');
    const long = modeSummary({ ...base, whenToUse: 'w '.repeat(300) });
    assert.equal(long.length, 200);
    assert.ok(long.endsWith('…'));
  });
});
