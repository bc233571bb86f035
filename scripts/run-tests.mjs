// Runs every *.test.ts under the given folders (or the given test files) with Node's test runner (through tsx).
// Node 20's --test does not expand globs, so the files are listed here.
// --one-process runs them all in one process (the unit tests: pure, so they need no isolation,
// and starting a process per file was most of their time).
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

function findTests(dir) {
  if (!statSync(dir).isDirectory()) return dir.endsWith('.test.ts') ? [dir] : [];
  const found = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) found.push(...findTests(full));
    else if (name.endsWith('.test.ts')) found.push(full);
  }
  return found;
}

const oneProcess = process.argv.includes('--one-process');
const dirs = process.argv.slice(2).filter((arg) => arg !== '--one-process');
const files = dirs.flatMap(findTests).sort();
if (files.length === 0) {
  console.error(`No tests found under ${dirs.join(', ')}`);
  process.exit(1);
}
if (oneProcess) {
  const dir = mkdtempSync(join(tmpdir(), 'smith-unit-'));
  const entry = join(dir, 'all.test.ts');
  writeFileSync(entry, files.map((file) => `import ${JSON.stringify(resolve(file))};`).join('\n'));
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--test-reporter=spec', entry], { stdio: 'inherit' });
  rmSync(dir, { recursive: true, force: true });
  process.exit(result.status ?? 1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
