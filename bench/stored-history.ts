// A history like a long-time user's, written into a storage folder before a benchmark opens the
// panel: many stored tasks, most small, some with megabytes of tool output, built from the
// scripted task log in test/fixtures/logs (its events repeated, the tool output padded).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** How many tasks, and how large. */
export interface StoredHistoryShape {
  readonly tasks: number;
  /** Every `bigEvery`-th task is big (megabytes of tool output); the others are a few dozen KB. */
  readonly bigEvery: number;
  /** Rounds of model reply + tool call + result in a small and in a big task. */
  readonly smallRounds: number;
  readonly bigRounds: number;
}

/** 300 tasks, one in 20 with about 2 MB of tool output: about 45 MB of logs. */
export const LONG_HISTORY: StoredHistoryShape = { tasks: 300, bigEvery: 20, smallRounds: 10, bigRounds: 250 };

/** Writes the tasks under `<storageDir>/tasks/`; returns the bytes written. */
export function writeStoredHistory(root: string, storageDir: string, cwd: string, shape: StoredHistoryShape = LONG_HISTORY): number {
  const lines = readFileSync(join(root, 'test', 'fixtures', 'logs', 'v1-xml-task.jsonl'), 'utf8')
    .trim()
    .split('\n');
  const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const start = events.findIndex((e) => e.type === 'request_started');
  const end = events.findIndex((e) => e.type === 'tool_result');
  const [started] = events;
  const round = events.slice(start, end + 1);
  const rest = events.slice(end + 1);
  const padding = 'x'.repeat(8_000);
  let bytes = 0;
  for (let i = 0; i < shape.tasks; i++) {
    const taskId = `history-${String(i).padStart(4, '0')}`;
    const ts = 1_700_000_000_000 + i * 60_000;
    let seq = 0;
    const out: string[] = [];
    const push = (event: Record<string, unknown>) => out.push(JSON.stringify({ ...event, seq: seq++, ts }));
    push({ ...started, taskId, task: `Task ${i}: add gamma to notes.txt`, cwd });
    const rounds = i % shape.bigEvery === 0 ? shape.bigRounds : shape.smallRounds;
    for (let r = 0; r < rounds; r++) {
      for (const event of round) {
        if (event.type === 'tool_result') push({ ...event, callId: `call-${r}`, output: `${String(event.output)}\n${padding}` });
        else if (event.type === 'tool_requested') push({ ...event, callId: `call-${r}` });
        else push(event);
      }
    }
    for (const event of rest) push(event);
    const text = `${out.join('\n')}\n`;
    mkdirSync(join(storageDir, 'tasks', taskId), { recursive: true });
    writeFileSync(join(storageDir, 'tasks', taskId, 'events.jsonl'), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}
