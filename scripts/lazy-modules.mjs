// Heavy third-party code (the providers' SDKs, the tokenizer, MCP, tree-sitter, the HTML parsers)
// is loaded on first use, not when the extension activates or the CLI starts. Each file in a
// `lazy/` folder under src/ re-exports third-party packages only and is bundled on its own as
// dist/lazy/<file>.js, shared by the extension and the CLI. The code that needs it reaches it
// with require() or import() inside a function; this plugin turns those into a require of the
// separate bundle and refuses a static import, which would pull it back into the start-up bundle.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { metafileCheck } from './metafile-check.mjs';

/** Where the lazily loaded bundles go, relative to the bundles that load them. */
export const LAZY_FOLDER = 'lazy';

/**
 * Every lazily loaded module under `srcDir`: its source file and the name of its bundle.
 * @param {string} srcDir
 * @returns {{ file: string, name: string }[]}
 */
export function findLazyModules(srcDir) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (basename(dir) === LAZY_FOLDER && entry.endsWith('.ts')) found.push({ file: full, name: entry.replace(/\.ts$/, '') });
    }
  };
  // Real paths, as esbuild resolves imports (src/ may be a symbolic link).
  walk(realpathSync(srcDir));
  const names = new Map();
  for (const module of found) {
    const other = names.get(module.name);
    if (other) throw new Error(`Two lazily loaded modules share the bundle name ${module.name}: ${other} and ${module.file}`);
    names.set(module.name, module.file);
  }
  return found;
}

/**
 * For the start-up bundles: a require()/import() of a lazy module becomes a require of
 * ./lazy/<name>.js beside the bundle; a static import of one fails the build.
 * @param {{ file: string, name: string }[]} modules
 * @returns {import('esbuild').Plugin}
 */
export function loadLazily(modules) {
  const byFile = new Map(modules.map((m) => [m.file, m.name]));
  return {
    name: 'load-lazily',
    setup(build) {
      build.onResolve({ filter: new RegExp(`/${LAZY_FOLDER}/[^/]+\\.js$`) }, (args) => {
        const file = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
        const name = byFile.get(file);
        if (name === undefined) return undefined;
        if (args.kind === 'require-call' || args.kind === 'dynamic-import') return { path: `./${LAZY_FOLDER}/${name}.js`, external: true };
        return {
          errors: [
            {
              text: `${relative(process.cwd(), args.importer)} imports ${args.path} statically: load it with require() or import() inside a function, so it stays out of the start-up bundle.`,
            },
          ],
        };
      });
    },
  };
}

/**
 * The packages the lazy modules re-export (`@anthropic-ai/sdk`, `openai`, …), by name.
 * @param {{ file: string }[]} modules
 */
export function lazyPackages(modules) {
  const names = new Set();
  for (const { file } of modules) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from|require\()\s*'([^'.][^']*)'/g)) {
      const parts = spec.split('/');
      names.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
    }
  }
  return [...names];
}

/**
 * For the start-up bundles: the build fails when one of them contains a lazily loaded package
 * after all (a static import of it somewhere), which would undo the point of loading it lazily.
 * @param {string[]} packages
 * @returns {import('esbuild').Plugin}
 */
export function withoutLazyPackages(packages) {
  return metafileCheck('without-lazy-packages', (metafile) => {
    const found = new Set();
    for (const input of Object.keys(metafile.inputs)) {
      for (const name of packages) if (input.includes(`node_modules/${name}/`)) found.add(name);
    }
    if (found.size === 0) return undefined;
    return `${[...found].join(', ')} ended up in a start-up bundle: import them only through their module in a lazy/ folder, with require() or import() inside a function.`;
  });
}

/**
 * For the lazy bundles themselves: they re-export third-party packages and import none of Smith's
 * own modules, whose state would otherwise exist twice (once in each bundle).
 * @returns {import('esbuild').Plugin}
 */
export function thirdPartyOnly() {
  return {
    name: 'third-party-only',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.importer.includes(`${sep}node_modules${sep}`) || basename(dirname(args.importer)) !== LAZY_FOLDER) return undefined;
        return {
          errors: [{ text: `${relative(process.cwd(), args.importer)} imports ${args.path}: a lazily loaded module re-exports third-party packages only.` }],
        };
      });
    },
  };
}

/**
 * Packages the lazy bundles leave out because Smith never calls them, though a package it uses
 * requires them when it loads: turndown's own HTML parser (web-page.ts hands it a parsed body).
 * A call reaches a stub that says so.
 */
export const LEFT_OUT = ['@mixmark-io/domino'];

/** @returns {import('esbuild').Plugin} */
export function leaveOut(packages = LEFT_OUT) {
  const names = new Set(packages);
  return {
    name: 'leave-out',
    setup(build) {
      build.onResolve({ filter: /^[@a-z]/ }, (args) => (names.has(args.path) ? { path: args.path, namespace: 'left-out' } : undefined));
      build.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
        contents: `const missing = () => { throw new Error(${JSON.stringify(`${args.path} is not part of Smith's build (scripts/lazy-modules.mjs)`)}); };
module.exports = new Proxy({}, { get: (_, key) => (key === '__esModule' ? false : missing) });`,
        loader: 'js',
      }));
    },
  };
}
