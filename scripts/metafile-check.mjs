// What ended up in a bundle is checked after esbuild has built it, from its metafile: no lazily
// loaded package in a start-up bundle (lazy-modules.mjs), nothing but the listed files in the
// extension's entry (small-entry.mjs), no classic zod (zod-mini-only.mjs). One way to fail a build.

/**
 * A plugin that fails the build with the text `problem` gives for the bundle's metafile, if any.
 * @param {string} name
 * @param {(metafile: import('esbuild').Metafile, build: import('esbuild').PluginBuild) => string | undefined} problem
 * @returns {import('esbuild').Plugin}
 */
export function metafileCheck(name, problem) {
  return {
    name,
    setup(build) {
      build.initialOptions.metafile = true;
      build.onEnd((result) => {
        if (!result.metafile) return undefined;
        const text = problem(result.metafile, build);
        return text === undefined ? undefined : { errors: [{ text }] };
      });
    },
  };
}
