// Bytes a task's log takes on disk: the logs an earlier build wrote (test/fixtures/logs, scripted
// tasks, each model reply stored twice: as text and as blocks) against the same events written
// by this build (each reply stored once, as blocks; the text derived when read). A count, not a time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventFromLine, storedLine } from '../src/core/log/stored-events.js';
import { statusOf, type BenchOptions, type BenchOutcome, type Row } from './report.js';
import { round } from './timing.js';

const LOGS = ['v1-xml-task', 'v1-native-task'] as const;

interface Sizes {
  readonly before: number;
  readonly after: number;
  readonly repliesBefore: number;
  readonly repliesAfter: number;
}

function sizes(text: string): Sizes {
  const lines = text.trim().split('\n');
  let repliesBefore = 0;
  let repliesAfter = 0;
  let after = 0;
  for (const line of lines) {
    const raw = JSON.parse(line) as { type: string };
    const rewritten = `${storedLine(eventFromLine(raw))}\n`;
    after += Buffer.byteLength(rewritten);
    if (raw.type === 'model_response') {
      repliesBefore += Buffer.byteLength(`${line}\n`);
      repliesAfter += Buffer.byteLength(rewritten);
    }
  }
  return { before: Buffer.byteLength(`${lines.join('\n')}\n`), after, repliesBefore, repliesAfter };
}

export async function runLogSizeBench(options: BenchOptions): Promise<BenchOutcome> {
  const results: Record<string, Sizes & { ratio: number }> = {};
  const rows: Row[] = [];
  for (const name of LOGS) {
    const measured = sizes(readFileSync(join(options.root, 'test', 'fixtures', 'logs', `${name}.jsonl`), 'utf8'));
    const ratio = round(measured.after / measured.before);
    results[name] = { ...measured, ratio };
    const replies = round(measured.repliesAfter / measured.repliesBefore);
    rows.push(
      {
        bench: 'log-size',
        metric: `${name}: bytes written now / by the version 1 build`,
        value: `${measured.before} → ${measured.after} (${ratio.toFixed(2)}x)`,
        target: '',
        status: 'info',
      },
      // Stored once instead of as text and blocks: the replies must shrink.
      {
        bench: 'log-size',
        metric: `  ${name}: model replies now / version 1 (each reply stored once)`,
        value: `${measured.repliesBefore} → ${measured.repliesAfter} (${replies.toFixed(2)}x)`,
        target: '< 1x',
        status: statusOf(replies, (v) => v < 1),
      },
    );
  }
  return { results, rows, notes: [] };
}
