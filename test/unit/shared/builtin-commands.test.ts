// The built-in slash commands: one table for the REPL and the panel, one reading of `/name args`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { REPL_COMMANDS } from '../../../src/cli/repl-completion.js';
import { REPL_HELP } from '../../../src/cli/repl-commands.js';
import { isSlashCommand, taskMessageText } from '../../../src/cli/command-text.js';
import { panelCommand, slashSuggestions } from '../../../src/panel/slash-input.js';
import { builtinCommand, builtinCommandsOf, parseSlashInput } from '../../../src/shared/builtin-commands.js';
import type { TaskOptions } from '../../../src/core/task/task.js';

/** Every built-in command of either host, once. */
const ALL = [...new Set([...builtinCommandsOf('cli'), ...builtinCommandsOf('panel')])];

describe('parseSlashInput', () => {
  test('every built-in command reads as its name, alone and with arguments', () => {
    for (const command of ALL) {
      assert.deepEqual(parseSlashInput(`/${command.name}`), { name: command.name, args: '' }, command.name);
      assert.deepEqual(parseSlashInput(`/${command.name} one two`), { name: command.name, args: 'one two' }, command.name);
    }
  });

  test('white space around and between is not part of the name or the arguments; inside the arguments it is kept', () => {
    assert.deepEqual(parseSlashInput('  /mode   act  '), { name: 'mode', args: 'act' });
    assert.deepEqual(parseSlashInput('/mode\tplan'), { name: 'mode', args: 'plan' });
    assert.deepEqual(parseSlashInput('\n/review src/a.ts\n  focus on tests\n'), { name: 'review', args: 'src/a.ts\n  focus on tests' });
    assert.deepEqual(parseSlashInput('/resume 2026-x   fix   it'), { name: 'resume', args: '2026-x   fix   it' });
  });

  test('the name keeps its case (the table is looked up in any case) and every character but space and slash', () => {
    assert.deepEqual(parseSlashInput('/MODE plan'), { name: 'MODE', args: 'plan' });
    for (const name of ['mcp__github__list-prs', 'frontend:component', 'review_pr.v2', '2fa', 'café'])
      assert.deepEqual(parseSlashInput(`/${name} x`), { name, args: 'x' }, name);
  });

  test('a path, a lone slash, a doubled slash or a slash later in the text is not a command', () => {
    for (const text of ['/etc/hosts', '/tmp/a.txt is wrong', '/', '/ mode', '//mode act', 'use /mode', '', '   ', 'y'])
      assert.equal(parseSlashInput(text), undefined, JSON.stringify(text));
  });

  test('a very long line is read at once, its arguments whole', () => {
    const args = 'x '.repeat(500_000).trim();
    assert.equal(parseSlashInput(`/review ${args}`)?.args.length, args.length);
  });
});

describe('the built-in commands table', () => {
  test('names the commands each host offers, host-only ones flagged by their hosts', () => {
    assert.deepEqual(
      builtinCommandsOf('cli').map((c) => c.name),
      [
        'help',
        'clear',
        'history',
        'resume',
        'events',
        'condense',
        'rules',
        'skills',
        'permissions',
        'checkpoints',
        'rewind',
        'plan',
        'act',
        'mode',
        'mcp',
        'exit',
      ],
    );
    assert.deepEqual(
      builtinCommandsOf('panel').map((c) => c.name),
      ['newtask', 'condense', 'skills', 'plan', 'act', 'mode'],
    );
    const names = ALL.flatMap((c) => [c.name, ...(c.aliases ?? [])]);
    assert.equal(new Set(names).size, names.length, 'no name twice');
    for (const c of ALL) assert.ok(c.hosts.length > 0 && c.description.length > 0, c.name);
  });

  test('builtinCommand finds a command in any case and by its alias, only in a host that offers it', () => {
    assert.equal(builtinCommand({ name: 'Condense', args: '' }, 'cli')?.name, 'condense');
    assert.equal(builtinCommand({ name: 'CONDENSE', args: '' }, 'panel')?.name, 'condense');
    assert.equal(builtinCommand({ name: 'quit', args: '' }, 'cli')?.name, 'exit');
    assert.equal(builtinCommand({ name: 'newtask', args: '' }, 'cli'), undefined);
    assert.equal(builtinCommand({ name: 'help', args: '' }, 'panel'), undefined);
    assert.equal(builtinCommand({ name: 'rewind', args: '1' }, 'panel'), undefined);
    assert.equal(builtinCommand({ name: 'review', args: '' }, 'cli'), undefined);
  });

  test('the REPL’s help and completions list exactly its commands, with their arguments', () => {
    assert.deepEqual(REPL_COMMANDS, [
      'help',
      'clear',
      'history',
      'resume',
      'events',
      'condense',
      'rules',
      'skills',
      'permissions',
      'checkpoints',
      'rewind',
      'plan',
      'act',
      'mode',
      'mcp',
      'exit',
    ]);
    for (const command of builtinCommandsOf('cli')) {
      const usage = `/${command.name}${command.args ? ` ${command.args}` : ''}`;
      assert.match(REPL_HELP, new RegExp(`^ {2}${usage.replace(/[|[\]]/g, '\\$&')} +\\S`, 'm'), command.name);
    }
    assert.doesNotMatch(REPL_HELP, /\/newtask/);
  });

  test('the panel reads its commands with the same parser and lists them first, with their arguments', () => {
    assert.deepEqual(panelCommand('  /MODE   plan '), { name: 'mode', args: 'plan' });
    assert.deepEqual(panelCommand('/newtask fix the tests'), { name: 'newtask', args: 'fix the tests' });
    assert.deepEqual(panelCommand('/skill architect'), { name: 'mode', args: 'architect' }, '/skill is the older name of /mode');
    for (const text of ['/help', '/rewind 1', '/exit', '/review x', '/etc/hosts', '//mode act', 'mode act']) assert.equal(panelCommand(text), undefined, text);
    const listed = slashSuggestions('', { storageDir: '/nonexistent', cwd: undefined });
    assert.deepEqual(
      listed.map((s) => s.label),
      ['newtask [task]', 'condense', 'skills', 'plan', 'act', 'mode [slug]'],
    );
    assert.deepEqual(
      slashSuggestions('MO', { storageDir: '/nonexistent', cwd: undefined }).map((s) => s.value),
      ['mode'],
    );
  });

  test('the CLI reads a task message with the same parser: a path or an unknown command is sent as written', () => {
    for (const text of ['/mode act', '  /rewind 1 --force', '/2fa', '/MODE']) assert.equal(isSlashCommand(text), true, text);
    for (const text of ['/etc/hosts', '/', '//x', 'say /help']) assert.equal(isSlashCommand(text), false, text);
    const sources = { options: { cwd: '/nonexistent', storageDir: '/nonexistent' } as TaskOptions, warn: () => {} };
    assert.equal(taskMessageText('/tmp is full', sources), '/tmp is full');
    assert.equal(taskMessageText('/etc/hosts is wrong', sources), '/etc/hosts is wrong');
  });
});
