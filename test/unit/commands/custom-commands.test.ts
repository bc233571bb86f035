import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { expandCommand, loadCustomCommands } from '../../../src/core/commands/custom-commands.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let ws: TempWorkspace;
let home: string;
beforeEach(() => {
  ws = createTempWorkspace('smith-commands-');
  home = mkdtempSync(join(tmpdir(), 'smith-home-'));
});
afterEach(() => {
  ws.dispose();
  rmSync(home, { recursive: true, force: true });
});

describe('custom slash commands', () => {
  test('reads .smith/commands, .claude/commands, Cline workflows and the user folders; the workspace wins a name', () => {
    ws.write('.smith/commands/review.md', '---\ndescription: Review a file\nargument-hint: FILE\n---\nReview $ARGUMENTS carefully.');
    ws.write('.claude/commands/review.md', 'Hidden by the .smith one.');
    ws.write('.claude/commands/frontend/component.md', '# Make a component\nCreate the component $1 in $2.');
    ws.write('.clinerules/workflows/release.md', 'Tag and publish the release.');
    const user = join(home, 'smith-storage-commands');
    mkdirSync(user);
    writeFileSync(join(user, 'standup.md'), 'Summarise yesterday.');
    mkdirSync(join(home, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(home, '.claude', 'commands', 'release.md'), 'Hidden by the workflow.');
    writeFileSync(join(home, '.claude', 'commands', 'explain.md'), 'Explain the code.');
    const { commands, problems } = loadCustomCommands({ workspaceRoot: ws.root, userCommandsDir: user, homeDir: home });
    assert.deepEqual(problems, []);
    assert.deepEqual(
      commands.map((c) => [c.name, c.source, c.description ?? '', c.argumentHint ?? '']),
      [
        ['explain', '~/.claude/commands/explain.md', 'Explain the code.', ''],
        ['frontend:component', '.claude/commands/frontend/component.md', 'Make a component', ''],
        ['release', '.clinerules/workflows/release.md', 'Tag and publish the release.', ''],
        ['review', '.smith/commands/review.md', 'Review a file', 'FILE'],
        ['standup', '<storage>/commands/standup.md', 'Summarise yesterday.', ''],
      ],
    );
  });

  test('expansion: $ARGUMENTS, $1…$9, or the arguments appended', () => {
    const command = (body: string) => ({ name: 'x', source: 'x.md', body });
    assert.equal(expandCommand(command('Review $ARGUMENTS carefully.'), ' src/a.ts  src/b.ts '), 'Review src/a.ts  src/b.ts carefully.');
    assert.equal(expandCommand(command('Create $1 in $2 ($3).'), 'Button src/ui'), 'Create Button in src/ui ().');
    assert.equal(expandCommand(command('Tag the release.\n'), 'v1.2'), 'Tag the release.\n\nv1.2');
    assert.equal(expandCommand(command('Tag the release.\n'), ''), 'Tag the release.');
  });

  test('bad front matter is reported and the command still works', () => {
    ws.write('.smith/commands/fix.md', '---\ndescription: [unclosed\n---\nFix it.');
    const { commands, problems } = loadCustomCommands({ workspaceRoot: ws.root, homeDir: home });
    assert.equal(commands[0]?.body, 'Fix it.');
    assert.match(problems[0] ?? '', /^\.smith\/commands\/fix\.md: front matter is not valid YAML/);
  });
});
