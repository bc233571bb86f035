// Keeps test/unit honest: a unit test runs in-process and fast, so it may not start processes,
// open sockets or servers, load tree-sitter's wasm, or run the CLI. Such tests belong in
// test/integration. Fails with the file and the import that breaks the rule.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const FORBIDDEN = [
  [/['"]node:(child_process|net|http|https|http2|worker_threads|dgram)['"]/, 'processes, sockets and servers'],
  [/['"]web-tree-sitter['"]|grammar-loader|definition-extractor|list-code-definition-names|shell-commands|permission-rules/, 'tree-sitter wasm'],
  [
    /scripted-llm-server|agent-fixture|cli-runner|cli-pty|child-process-runner|command-sessions|search\/ripgrep|tools\/search-files|tools\/execute-command|pid-liveness|hooks\/hooks/,
    'processes, servers or the CLI',
  ],
];

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? testFiles(full) : name.endsWith('.ts') ? [full] : [];
  });
}

const problems = [];
for (const file of testFiles('test/unit')) {
  const imports = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /^\s*(import|export)\b.*from\s|require\(|import\(/.test(line));
  for (const line of imports) {
    for (const [pattern, what] of FORBIDDEN) {
      if (pattern.test(line)) problems.push(`${relative('.', file)}: ${line.trim()}  (${what}: move the test to test/integration)`);
    }
  }
}
if (problems.length > 0) {
  console.error(`Unit tests must be pure:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('Unit tests are pure.');
