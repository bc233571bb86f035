import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, test } from 'node:test';
import * as treeSitter from 'web-tree-sitter';
import { CODE_LANGUAGES, languageForPath, supportedExtensions } from '../../../src/core/code/code-languages.js';
import { loadGrammar } from '../../../src/core/code/grammar-loader.js';
import { locateWasm, WASM_FILES } from '../../../src/core/code/wasm-locator.js';

describe('wasm files and grammar ABI', () => {
  test('every grammar is in the shipped manifest, and the manifest holds nothing else but the runtime and the shell grammar', () => {
    const grammars = CODE_LANGUAGES.map((language) => language.wasm).sort();
    assert.deepEqual(Object.keys(WASM_FILES).sort(), [...grammars, 'web-tree-sitter.wasm', 'tree-sitter-bash.wasm'].sort());
  });

  test('from source, every wasm file is found in node_modules', () => {
    for (const [name, inPackage] of Object.entries(WASM_FILES)) {
      assert.ok(locateWasm(name).endsWith(`${sep}node_modules${sep}${inPackage.split('/').join(sep)}`), name);
    }
  });

  test('a wasm folder beside the bundle wins over node_modules', () => {
    const bundleDir = mkdtempSync(join(tmpdir(), 'smith-bundle-'));
    try {
      mkdirSync(join(bundleDir, 'wasm'));
      writeFileSync(join(bundleDir, 'wasm', 'tree-sitter-go.wasm'), '');
      assert.equal(locateWasm('tree-sitter-go.wasm', bundleDir), join(bundleDir, 'wasm', 'tree-sitter-go.wasm'));
      assert.throws(() => locateWasm('tree-sitter-rust.wasm', bundleDir), /Cannot find tree-sitter-rust\.wasm.*node esbuild\.mjs/);
      assert.throws(() => locateWasm('tree-sitter-cobol.wasm', bundleDir), /Cannot find tree-sitter-cobol\.wasm/);
    } finally {
      rmSync(bundleDir, { recursive: true, force: true });
    }
  });

  test("every grammar's language ABI is within what this web-tree-sitter runtime accepts", async () => {
    for (const language of CODE_LANGUAGES) {
      const { parser } = await loadGrammar(language);
      const abi = parser.language!.abiVersion;
      assert.ok(
        abi >= treeSitter.MIN_COMPATIBLE_VERSION && abi <= treeSitter.LANGUAGE_VERSION,
        `${language.id}: ABI ${abi} outside ${treeSitter.MIN_COMPATIBLE_VERSION}-${treeSitter.LANGUAGE_VERSION}`,
      );
    }
  });

  test('each language is loaded once and cached', async () => {
    const go = CODE_LANGUAGES.find((language) => language.id === 'go')!;
    const [a, b] = await Promise.all([loadGrammar(go), loadGrammar(go)]);
    assert.equal(a, b);
    assert.equal(await loadGrammar(go), a);
  });

  test('maps extensions to languages, case-insensitively', () => {
    assert.equal(languageForPath('src/App.TSX')?.id, 'tsx');
    assert.equal(languageForPath('lib/x.h')?.id, 'c');
    assert.equal(languageForPath('lib/x.hpp')?.id, 'cpp');
    assert.equal(languageForPath('README.md'), undefined);
    assert.equal(languageForPath('Makefile'), undefined);
    assert.ok(supportedExtensions().includes('.rb') && supportedExtensions().includes('.cs'));
  });
});
