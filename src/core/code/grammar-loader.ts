import { readFile } from 'node:fs/promises';
import type { Parser, Query } from 'web-tree-sitter';
import type { CodeLanguage, CodeLanguageId } from './code-languages.js';
import { DEFINITION_QUERIES } from './definition-queries.js';
import { locateWasm } from './wasm-locator.js';

import type * as TreeSitter from './lazy/web-tree-sitter.js';

/** A language ready to use: a parser set to its grammar and its compiled definition query. */
interface LoadedGrammar {
  readonly parser: Parser;
  readonly definitions: Query;
}

let runtime: Promise<void> | undefined;
const grammars = new Map<CodeLanguageId, Promise<LoadedGrammar>>();

/**
 * Loads a language once per process and caches it; the first call also starts the tree-sitter
 * runtime. A failed load is forgotten so that a later call can try again.
 */
export function loadGrammar(language: CodeLanguage): Promise<LoadedGrammar> {
  let loading = grammars.get(language.id);
  if (!loading) {
    loading = load(language);
    grammars.set(language.id, loading);
    loading.catch(() => grammars.delete(language.id));
  }
  return loading;
}

async function load(language: CodeLanguage): Promise<LoadedGrammar> {
  const parser = await loadParser(language.wasm);
  return { parser, definitions: new (treeSitter().Query)(parser.language!, DEFINITION_QUERIES[language.id]) };
}

const parsers = new Map<string, Promise<Parser>>();

/** A parser for one grammar file (e.g. `tree-sitter-bash.wasm`), loaded once per process. */
export function loadParser(wasmFile: string): Promise<Parser> {
  let loading = parsers.get(wasmFile);
  if (!loading) {
    loading = (async () => {
      await startRuntime();
      // Reading the bytes ourselves keeps the runtime's own file lookup (fetch or fs, by guess) out of it.
      const grammar = await treeSitter().Language.load(new Uint8Array(await readFile(locateWasm(wasmFile))));
      const parser = new (treeSitter().Parser)();
      parser.setLanguage(grammar);
      return parser;
    })();
    parsers.set(wasmFile, loading);
    loading.catch(() => parsers.delete(wasmFile));
  }
  return loading;
}

function startRuntime(): Promise<void> {
  if (!runtime) {
    // Without locateFile the runtime looks beside its own script, which is dist/ once bundled.
    runtime = treeSitter().Parser.init({ locateFile: (fileName: string) => locateWasm(fileName) });
    runtime.catch(() => {
      runtime = undefined;
    });
  }
  return runtime;
}

/** web-tree-sitter, loaded with the first grammar: a separate bundle (see scripts/lazy-modules.mjs). */
function treeSitter(): typeof TreeSitter {
  return require('./lazy/web-tree-sitter.js');
}
