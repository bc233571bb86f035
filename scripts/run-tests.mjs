// Runs every *.test.ts under the given folders with Node's test runner (through tsx).
// Node 20's --test does not expand globs, so the files are listed here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function findTests(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) found.push(...findTests(full));
    else if (name.endsWith('.test.ts')) found.push(full);
  }
  return found;
}

const dirs = process.argv.slice(2);
const files = dirs.flatMap(findTests).sort();
if (files.length === 0) {
  console.error(`No tests found under ${dirs.join(', ')}`);
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
