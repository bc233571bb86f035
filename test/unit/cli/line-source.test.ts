import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { LineSource } from '../../../src/cli/line-source.js';
import { isSlashCommand } from '../../../src/cli/repl-commands.js';

function source(terminal: boolean) {
  const input = new PassThrough();
  const lines = new LineSource(input, new PassThrough(), terminal);
  const typeLine = async (line: string) => {
    input.write(`${line}\n`);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { lines, typeLine };
}

test('on a terminal, a line typed before a reply prompt goes to the type-ahead handler, not to the prompt', async () => {
  const { lines, typeLine } = source(true);
  const typedAhead: string[] = [];
  lines.setTypeAhead((line) => typedAhead.push(line));
  await typeLine('y');
  const reply = lines.reply('Approve? ', new AbortController().signal);
  await typeLine('n');
  assert.equal(await reply, 'n');
  assert.deepEqual(typedAhead, ['y']);
  lines.close();
});

test('on a terminal, a reply prompt skips lines buffered before it; they stay for the next ordinary prompt', async () => {
  const { lines, typeLine } = source(true);
  await typeLine('early');
  const reply = lines.reply('> ', new AbortController().signal);
  await typeLine('late');
  assert.equal(await reply, 'late');
  assert.equal(await lines.next('smith> '), 'early');
  lines.close();
});

test('piped input answers prompts in order, even lines that arrived before the prompt', async () => {
  const { lines, typeLine } = source(false);
  await typeLine('y');
  await typeLine('feedback');
  assert.equal(await lines.reply('Approve? ', new AbortController().signal), 'y');
  assert.equal(await lines.reply('Approve? ', new AbortController().signal), 'feedback');
  lines.close();
});

test('a slash command at a reply prompt runs as a command and the prompt waits on', async () => {
  const { lines, typeLine } = source(true);
  const ran: string[] = [];
  lines.commandHandler = async (line) => {
    if (!isSlashCommand(line)) return false;
    ran.push(line);
    return true;
  };
  const reply = lines.reply('> ', new AbortController().signal);
  await typeLine('/mode act');
  await typeLine('/etc/hosts is the file');
  assert.equal(await reply, '/etc/hosts is the file');
  assert.deepEqual(ran, ['/mode act']);
  lines.close();
});

test('a reply prompt rejects when its signal fires, and closing the input ends it with undefined', async () => {
  const { lines } = source(true);
  const controller = new AbortController();
  const aborted = lines.reply('> ', controller.signal);
  controller.abort(new Error('stopped'));
  await assert.rejects(aborted, /stopped/);
  const pending = lines.reply('> ', new AbortController().signal);
  lines.close();
  assert.equal(await pending, undefined);
});

test('isSlashCommand: a /word alone or before a space, not a path', () => {
  for (const line of ['/exit', '/mode act', '  /resume 2026-x  ', '/MODE plan', '/mcp__github__list-prs 3', '/frontend:component Button', '/review_pr.v2'])
    assert.equal(isSlashCommand(line), true, line);
  for (const line of ['/etc/hosts', '/tmp/a.txt is wrong', 'y', '', 'use /mode', '/']) assert.equal(isSlashCommand(line), false, line);
});
