// Classic zod bundles the messages of every language it speaks (over half of its code) because its
// index re-exports them as `z.locales`; Smith's messages are English and it never switches locale,
// so the bundles get a `locales` with English only. Smith's own schemas (zod/mini) import English
// alone (src/shared/zod-config.ts), which the bundler keeps without the rest; this is for the
// classic zod of the lazily loaded packages (the MCP SDK's).
import { dirname, join, sep } from 'node:path';

/** @returns {import('esbuild').Plugin} */
export function zodEnglishOnly() {
  return {
    name: 'zod-english-only',
    setup(build) {
      // Its ES module build (index.js) and its CommonJS build (index.cjs).
      build.onResolve({ filter: /^\.\.\/locales\/index\.c?js$/ }, (args) =>
        args.importer.includes(`${sep}node_modules${sep}zod${sep}`)
          ? { path: join(args.resolveDir, '..', 'locales', args.path.endsWith('.cjs') ? 'en.cjs' : 'en.js'), namespace: 'zod-english-only' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
        contents: `export { default as en } from ${JSON.stringify(args.path)};`,
        resolveDir: dirname(args.path),
      }));
    },
  };
}
