// Provides the programs the tests need, so `npm test` works on a fresh machine:
// ripgrep (Debian's `ripgrep`) for search_files, Chromium for the panel and browser_action tests, `script` for the REPL test,
// zsh and fish for the terminal tests, bubblewrap and curl for the command sandbox. Installs with apt-get when it can (as root),
// otherwise stops with a message naming what to install. Nothing is ever skipped silently.
import { execFileSync, spawnSync } from 'node:child_process';

const needs = [
  { binary: 'rg', aptPackage: 'ripgrep', why: 'search_files uses ripgrep' },
  { binary: 'chromium', aptPackage: 'chromium', why: 'the webview, workbench and browser_action tests run in Chromium' },
  { binary: 'script', aptPackage: 'bsdutils', why: 'the REPL test runs the CLI on a pseudo-terminal' },
  { binary: 'zsh', aptPackage: 'zsh', why: 'the terminal tests run commands in zsh with shell integration' },
  { binary: 'fish', aptPackage: 'fish', why: 'the terminal tests run commands in fish with shell integration' },
  { binary: 'bwrap', aptPackage: 'bubblewrap', why: 'the sandbox tests run commands under bubblewrap' },
  { binary: 'curl', aptPackage: 'curl', why: 'the sandbox tests reach allowed hosts through the proxy with curl' },
];

function onPath(binary) {
  return spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
}

const missing = needs.filter((n) => !onPath(n.binary));
if (missing.length === 0) process.exit(0);

const canApt = process.getuid?.() === 0 && onPath('apt-get');
if (!canApt) {
  for (const n of missing)
    console.error(
      `Missing ${n.binary} (${n.why}). Install the "${n.aptPackage}" package, e.g. sudo apt-get install ${n.aptPackage} (macOS: brew install ${n.aptPackage}).`,
    );
  process.exit(1);
}
const packages = missing.map((n) => n.aptPackage);
console.log(`Installing ${packages.join(', ')} with apt-get…`);
const apt = (args) => execFileSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
try {
  apt(['install', '-y', '--no-install-recommends', ...packages]);
} catch {
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', ...packages]);
}
const still = missing.filter((n) => !onPath(n.binary));
if (still.length > 0) {
  console.error(`Could not install ${still.map((n) => n.aptPackage).join(', ')}.`);
  process.exit(1);
}
