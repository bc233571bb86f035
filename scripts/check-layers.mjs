// Enforces the layering of docs/architecture.md: only src/host/vscode and src/extension.ts may import 'vscode';
// src/shared imports no Node built-ins and nothing from core, panel, host or cli;
// src/core never imports panel, host or cli; src/panel (the panel backend) never imports host or cli;
// src/cli never imports panel or host; and inside src/core a folder imports only folders below it in
// CORE_ORDER. Only src/shared/zod-config.ts imports zod itself: the rest imports zod/mini from it,
// configured (see there). (Kebab-case file names are a lint rule: see biome.jsonc.)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The folders of src/core, lowest first: a file may import its own folder and the folders before it,
 * never one after it. The files directly in src/core (the Host port) are below every folder. A folder
 * missing from this list fails the check, so a new one has to be given its place.
 */
export const CORE_ORDER = [
  'parse',
  'edit',
  'web',
  'workspace',
  'worktrees',
  'providers',
  'secrets',
  'commit-message',
  'web-search',
  'search',
  'code',
  'log',
  'process',
  'browser',
  'rules',
  'tool-kit',
  'mcp',
  'commands',
  'context',
  'notebooks',
  'skills',
  'modes',
  'hooks',
  'permissions',
  'prompt',
  'tools',
  'checkpoints',
  'preview',
  'task',
  'subagents',
  'session',
  'replay',
  'bisect',
  'import',
];

/** The one file that imports zod itself (zod/mini, with its settings). */
const ZOD_CONFIG = 'src/shared/zod-config.ts';

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

/** The core layer of a repository-relative path: its folder under src/core, '' for a file directly in it, undefined outside core. */
function coreLayer(rel) {
  if (!rel.startsWith('src/core/')) return undefined;
  const parts = rel.slice('src/core/'.length).split('/');
  return parts.length > 1 ? parts[0] : '';
}

/** Rank in CORE_ORDER (-1 for the files directly in src/core), undefined for a folder the order does not name. */
function rank(layer) {
  if (layer === '') return -1;
  const index = CORE_ORDER.indexOf(layer);
  return index === -1 ? undefined : index;
}

/** Every layering problem of the repository at `root`, one line each (empty when the layering holds). */
export function layerProblems(root) {
  const problems = [];
  const scanned = ['src', 'webview-ui/src'].filter((d) => {
    try {
      return statSync(join(root, d)).isDirectory();
    } catch {
      return false;
    }
  });
  const unplaced = new Set();
  for (const dir of scanned) {
    for (const file of walk(join(root, dir))) {
      const rel = relative(root, file).split(sep).join('/');
      const fromLayer = coreLayer(rel);
      if (fromLayer !== undefined && rank(fromLayer) === undefined) unplaced.add(fromLayer);
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(importPattern)) {
        const spec = match[1] ?? match[2] ?? match[3] ?? match[4];
        const isVscode = spec === 'vscode';
        const inHost = rel.startsWith('src/host/vscode/') || rel === 'src/extension.ts';
        if (isVscode && !inHost) problems.push(`${rel}: imports 'vscode' outside src/host/vscode`);
        if (/^zod(\/|$)/.test(spec) && rel !== ZOD_CONFIG)
          problems.push(`${rel}: imports '${spec}': import zod/mini as \`import * as z from '…/shared/zod-config.js'\` (configured there)`);
        if (rel.startsWith('src/shared/') || rel.startsWith('webview-ui/')) {
          if (builtins.has(spec)) problems.push(`${rel}: imports Node built-in '${spec}'`);
          if (/\/(core|panel|host|cli)\//.test(spec)) problems.push(`${rel}: imports '${spec}' (shared/webview may import only src/shared)`);
        }
        if (rel.startsWith('src/core/') && /\/(panel|host|cli)\//.test(spec)) problems.push(`${rel}: core imports '${spec}'`);
        if (rel.startsWith('src/panel/') && /\/(host|cli)\//.test(spec)) problems.push(`${rel}: panel imports '${spec}'`);
        if (rel.startsWith('src/cli/') && /\/(panel|host)\//.test(spec)) problems.push(`${rel}: cli imports '${spec}'`);
        if (fromLayer !== undefined && spec.startsWith('.')) {
          const target = relative(root, resolve(dirname(file), spec))
            .split(sep)
            .join('/');
          const toLayer = coreLayer(target);
          const from = rank(fromLayer);
          const to = toLayer === undefined ? undefined : rank(toLayer);
          if (toLayer !== undefined && toLayer !== fromLayer && from !== undefined && to !== undefined && to > from) {
            problems.push(`${rel}: imports '${spec}', but core/${toLayer} is above core/${fromLayer || '(root)'} (CORE_ORDER in scripts/check-layers.mjs)`);
          }
        }
      }
    }
  }
  for (const layer of unplaced) problems.push(`src/core/${layer}/: a folder CORE_ORDER in scripts/check-layers.mjs does not place`);
  return problems;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = layerProblems(fileURLToPath(new URL('..', import.meta.url)));
  if (problems.length > 0) {
    console.error(`Layering check failed (see docs/architecture.md):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log('Layering check passed.');
}
