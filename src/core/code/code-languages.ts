import { extname } from 'node:path';

/** The languages whose definitions the code tools can list. */
export type CodeLanguageId = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'rust' | 'java' | 'c' | 'cpp' | 'csharp' | 'ruby' | 'php';

/** A language: its grammar wasm file and the file extensions (lower case, with the dot) it claims. */
export interface CodeLanguage {
  readonly id: CodeLanguageId;
  readonly wasm: string;
  readonly extensions: readonly string[];
}

/** Every supported language; `.h` goes to C because C headers are far more common than C++-only ones. */
export const CODE_LANGUAGES: readonly CodeLanguage[] = [
  { id: 'typescript', wasm: 'tree-sitter-typescript.wasm', extensions: ['.ts', '.mts', '.cts'] },
  { id: 'tsx', wasm: 'tree-sitter-tsx.wasm', extensions: ['.tsx'] },
  { id: 'javascript', wasm: 'tree-sitter-javascript.wasm', extensions: ['.js', '.jsx', '.mjs', '.cjs'] },
  { id: 'python', wasm: 'tree-sitter-python.wasm', extensions: ['.py', '.pyi'] },
  { id: 'go', wasm: 'tree-sitter-go.wasm', extensions: ['.go'] },
  { id: 'rust', wasm: 'tree-sitter-rust.wasm', extensions: ['.rs'] },
  { id: 'java', wasm: 'tree-sitter-java.wasm', extensions: ['.java'] },
  { id: 'c', wasm: 'tree-sitter-c.wasm', extensions: ['.c', '.h'] },
  { id: 'cpp', wasm: 'tree-sitter-cpp.wasm', extensions: ['.cpp', '.cc', '.cxx', '.c++', '.hpp', '.hh', '.hxx', '.h++'] },
  { id: 'csharp', wasm: 'tree-sitter-c-sharp.wasm', extensions: ['.cs'] },
  { id: 'ruby', wasm: 'tree-sitter-ruby.wasm', extensions: ['.rb'] },
  { id: 'php', wasm: 'tree-sitter-php.wasm', extensions: ['.php'] },
];

const byExtension = new Map(CODE_LANGUAGES.flatMap((language) => language.extensions.map((ext) => [ext, language] as const)));

/** The language of a file, judged by its extension; undefined when unsupported. */
export function languageForPath(path: string): CodeLanguage | undefined {
  return byExtension.get(extname(path).toLowerCase());
}

/** All supported extensions, sorted, for messages to the model. */
export function supportedExtensions(): readonly string[] {
  return [...byExtension.keys()].sort();
}
