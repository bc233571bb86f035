// Enforces the layering of docs/architecture.md: only src/host/vscode and src/extension.ts may import 'vscode';
// src/shared imports no Node built-ins and nothing from core, panel, host or cli;
// src/core never imports panel, host or cli; src/panel (the panel backend) never imports host or cli;
// src/cli never imports panel or host. (Kebab-case file names are a lint rule: see biome.jsonc.)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { builtinModules } from 'node:module';

const root = new URL('..', import.meta.url).pathname;
const importPattern =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...walk(full));
    else if (/\.(ts|tsx)$/.test(name)) out.push(full);
  }
  return out;
}

const problems = [];
const scanned = ['src', 'webview-ui/src'].filter((d) => {
  try {
    return statSync(join(root, d)).isDirectory();
  } catch {
    return false;
  }
});
for (const dir of scanned) {
  for (const file of walk(join(root, dir))) {
    const rel = relative(root, file).split(sep).join('/');
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(importPattern)) {
      const spec = match[1] ?? match[2] ?? match[3] ?? match[4];
      const isVscode = spec === 'vscode';
      const inHost = rel.startsWith('src/host/vscode/') || rel === 'src/extension.ts';
      if (isVscode && !inHost) problems.push(`${rel}: imports 'vscode' outside src/host/vscode`);
      if (rel.startsWith('src/shared/') || rel.startsWith('webview-ui/')) {
        if (builtins.has(spec)) problems.push(`${rel}: imports Node built-in '${spec}'`);
        if (/\/(core|panel|host|cli)\//.test(spec)) problems.push(`${rel}: imports '${spec}' (shared/webview may import only src/shared)`);
      }
      if (rel.startsWith('src/core/') && /\/(panel|host|cli)\//.test(spec)) problems.push(`${rel}: core imports '${spec}'`);
      if (rel.startsWith('src/panel/') && /\/(host|cli)\//.test(spec)) problems.push(`${rel}: panel imports '${spec}'`);
      if (rel.startsWith('src/cli/') && /\/(panel|host)\//.test(spec)) problems.push(`${rel}: cli imports '${spec}'`);
    }
  }
}
if (problems.length > 0) {
  console.error(`Layering check failed (see docs/architecture.md):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('Layering check passed.');
