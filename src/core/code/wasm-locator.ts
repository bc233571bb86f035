import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import wasmFiles from './wasm-files.json';

/**
 * Every wasm file the code tools need, by file name, with its path inside node_modules.
 * The same JSON drives the copy into dist/wasm in esbuild.mjs, so the two cannot drift apart.
 * Grammars come from @vscode/tree-sitter-wasm (built with tree-sitter 0.25, language ABI 14-15,
 * which web-tree-sitter 0.27 accepts); it has no C grammar, so C comes from tree-sitter-c's own wasm.
 */
export const WASM_FILES: Readonly<Record<string, string>> = wasmFiles;

/** The folder esbuild.mjs copies the wasm files into, relative to the bundles in dist/. */
const BUNDLED_WASM_FOLDER = 'wasm';

/**
 * Absolute path of a wasm file: next to the running bundle (dist/wasm) when bundled, else in
 * node_modules (running from source under tsx). Nothing is ever downloaded.
 */
export function locateWasm(fileName: string, baseDirectory: string = __dirname): string {
  const bundled = join(baseDirectory, BUNDLED_WASM_FOLDER, fileName);
  if (existsSync(bundled)) return bundled;
  const inPackage = WASM_FILES[fileName];
  if (inPackage !== undefined) {
    // From source, __dirname is src/core/code: walk up to the nearest node_modules that has the file.
    for (let dir = baseDirectory; ; dir = dirname(dir)) {
      const candidate = join(dir, 'node_modules', inPackage);
      if (existsSync(candidate)) return candidate;
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error(
    `Cannot find ${fileName}: looked in ${join(baseDirectory, BUNDLED_WASM_FOLDER)} and in node_modules/${inPackage ?? '(unknown file)'} above ${baseDirectory}. Rebuild with \`node esbuild.mjs\`.`,
  );
}
