// Smith's schemas use zod/mini (src/shared/zod-config.ts): classic zod's schemas carry every method
// whether used or not, which costs a start-up bundle about 150 KB more to fetch, parse and run. This
// plugin fails the build of a start-up bundle (the extension, the CLI's bundles, the webview) that
// contains classic zod after all (a package or a file importing 'zod', 'zod/v4' or 'zod/v3').
// The lazily loaded bundles (dist/lazy/) are third-party code and may carry their own.
import { metafileCheck } from './metafile-check.mjs';

/** Where classic zod lives inside the package: its v4 API and the older v3 one ('zod' is v4/classic). */
export const CLASSIC_ZOD = [/(^|\/)node_modules\/zod\/v4\/classic\//, /(^|\/)node_modules\/zod\/v3\//];

/**
 * A classic zod file among a build's inputs (esbuild's metafile), with the file outside the zod
 * package that leads to it (the import to change); undefined when there is none.
 * @param {import('esbuild').Metafile} metafile
 * @returns {{ file: string, via: string | undefined } | undefined}
 */
export function findClassicZod(metafile) {
  const inputs = Object.keys(metafile.inputs);
  const file = inputs.find((input) => CLASSIC_ZOD.some((pattern) => pattern.test(input)));
  if (file === undefined) return undefined;
  const importers = new Map();
  for (const input of inputs) {
    for (const { path } of metafile.inputs[input]?.imports ?? []) {
      if (!importers.has(path)) importers.set(path, []);
      importers.get(path).push(input);
    }
  }
  // Walks up from a classic file to the first importer outside the zod package.
  const outsideZod = (start) => {
    const seen = new Set([start]);
    const queue = [start];
    while (queue.length > 0) {
      for (const importer of importers.get(queue.shift()) ?? []) {
        if (seen.has(importer)) continue;
        if (!/(^|\/)node_modules\/zod\//.test(importer)) return importer;
        seen.add(importer);
        queue.push(importer);
      }
    }
    return undefined;
  };
  return { file, via: outsideZod(file) };
}

/** @returns {import('esbuild').Plugin} */
export function withoutClassicZod() {
  return metafileCheck('without-classic-zod', (metafile, build) => {
    const found = findClassicZod(metafile);
    if (found === undefined) return undefined;
    // A package file by its path from node_modules/ on (esbuild's path may climb out of the project).
    const [file, via] = [found.file, found.via].map((path) => path?.replace(/^.*?\/?node_modules\//, 'node_modules/'));
    const { outfile, entryPoints } = build.initialOptions;
    const entries = entryPoints === undefined ? [] : Array.isArray(entryPoints) ? entryPoints : Object.values(entryPoints);
    const bundle = outfile ?? `the bundle of ${entries.map((entry) => (typeof entry === 'string' ? entry : entry.in)).join(', ')}`;
    return `classic zod (${file}) ended up in ${bundle}${via ? `, imported through ${via}` : ''}: Smith's schemas use zod/mini, imported as \`import * as z from '…/shared/zod-config.js'\`.`;
  });
}
