import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderMessage } from '../../src/core/providers/types.js';
import { taskDir } from '../../src/core/log/task-log.js';
import type { UiMessage } from '../../src/shared/ui-messages.js';

/** The logs earlier builds wrote (test/fixtures/logs/README.md). */
export const STORED_LOGS = ['v1-xml-task', 'v1-native-task'] as const;

/** The name of a stored log. */
export type StoredLogName = (typeof STORED_LOGS)[number];

const FIXTURES = join(__dirname, '../fixtures/logs');

/** A stored log's lines as written. */
export function storedLogText(name: StoredLogName): string {
  return readFileSync(join(FIXTURES, `${name}.jsonl`), 'utf8');
}

/** What the build that wrote the log projected from it. */
export function storedLogProjections(name: StoredLogName): { ui: UiMessage[]; api: ProviderMessage[]; apiNative: ProviderMessage[] } {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.expected.json`), 'utf8'));
}

/** Puts a stored log (or its first `lines` lines, as a crash would leave it) under a storage folder as task `taskId`. */
export function installStoredLog(storage: string, name: StoredLogName, taskId: string, lines?: number): string {
  const dir = taskDir(storage, taskId);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'events.jsonl');
  const text = storedLogText(name);
  writeFileSync(file, lines === undefined ? text : `${text.split('\n').slice(0, lines).join('\n')}\n`);
  return file;
}

/**
 * A chat as the build that wrote the stored logs showed it: later builds add checkpoint markers,
 * each message's log position (`seq`) and who approved a tool call (`approvedBy`, `rule`);
 * everything else must be exactly as that build showed it.
 */
export function asThatBuildShowed(messages: readonly UiMessage[]): unknown[] {
  const later = new Set(['seq', 'approvedBy', 'rule']);
  return messages.filter((m) => m.kind !== 'checkpoint').map((m) => Object.fromEntries(Object.entries(m).filter(([key]) => !later.has(key))));
}
